import type { ReactNode } from 'react';
import { Authenticated, CanAccess } from 'react-admin';
import { AccessDeniedMessage } from './AccessDeniedMessage';
import { LoadingScreen } from '../layout/LoadingScreen';

/**
 * Signed-out visitors go to the login page (with a redirect back); signed-in users whom canAccess
 * refuses see an access-denied message at the same URL; others see the screen.
 */
export function RequireAccess({ resource, action, children }: { resource: string; action: string; children: ReactNode }) {
  return (
    <Authenticated loading={<LoadingScreen />}>
      <CanAccess resource={resource} action={action} loading={<LoadingScreen />} accessDenied={<AccessDeniedMessage />}>
        {children}
      </CanAccess>
    </Authenticated>
  );
}
