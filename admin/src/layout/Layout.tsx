import { Suspense, type ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { LoadingScreen } from './LoadingScreen';
import { Menu } from './Menu';
import { APP_BAR_HEIGHT } from './theme';

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={AppBar}
      menu={Menu}
      appBarAlwaysOn
      sx={{
        '& .RaLayout-appFrame': { marginTop: APP_BAR_HEIGHT },
        '@media (max-width: 599.95px)': { '& .RaLayout-appFrame': { marginTop: APP_BAR_HEIGHT } },
      }}
    >
      <Suspense fallback={<LoadingScreen />}>{children}</Suspense>
    </RaLayout>
  );
}

export default Layout;
