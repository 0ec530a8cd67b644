import { lazy, Suspense, useState } from 'react';
import type { ConfirmProps } from 'react-admin';

// The dialog's code (react-admin's Confirm on MUI's Dialog) loads on the first open: a list that
// offers a confirmation on each row (Jobs) renders its rows without it.
const Confirm = lazy(() => import('./ConfirmDialog'));

/** react-admin's Confirm, mounted from its first open on (then kept, so it closes with its transition). */
export function LazyConfirm(props: ConfirmProps) {
  const [opened, setOpened] = useState(props.isOpen === true);
  if (props.isOpen && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Confirm {...props} />
    </Suspense>
  );
}
