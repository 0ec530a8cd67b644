import { useEffect, useState, useSyncExternalStore } from 'react';
import { useMediaQuery, type Theme } from '@mui/material';

function subscribeResize(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The window's inner width, following resizes. */
export function useViewportWidth(): number {
  return useSyncExternalStore(subscribeResize, () => window.innerWidth, () => 1024);
}

/** Calls `onFocus` whenever the window regains focus (lists reload then). */
export function useWindowFocus(onFocus: () => void): void {
  useEffect(() => {
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [onFocus]);
}

/** The current time, refreshed every `intervalMs` (for "time since" columns). */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Below MUI's `sm` breakpoint (a phone): lists show one stacked row or card per record instead of a wide table. */
export function useSmallScreen(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
}
