import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { SiteInfo } from '../../../common/api/sites';
import { api } from '../providers/api';
import { SESSION_CHANGED_EVENT } from '../providers/session';


interface SiteInfoState {
  site: SiteInfo | null;
  /** True until the first answer (or failure) of GET /api/sites/info. */
  loading: boolean;
}

const SiteInfoContext = createContext<SiteInfoState>({ site: null, loading: false });

export function fetchSiteInfo(): Promise<SiteInfo | null> {
  return api<{ data?: SiteInfo | null }>('/api/sites/info').then((data) => data?.data ?? null);
}

/** White label (spec §1): the current site's settings, refetched whenever the session changes. */
export function SiteInfoProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SiteInfoState>({ site: null, loading: true });

  const load = useCallback(() => {
    let cancelled = false;
    fetchSiteInfo()
      .catch(() => null) // no branding is better than no app
      .then((site) => {
        if (!cancelled) setState({ site, loading: false });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    let cancel = load();
    const onSessionChanged = () => {
      cancel();
      cancel = load();
    };
    window.addEventListener(SESSION_CHANGED_EVENT, onSessionChanged);
    return () => {
      cancel();
      window.removeEventListener(SESSION_CHANGED_EVENT, onSessionChanged);
    };
  }, [load]);

  return <SiteInfoContext.Provider value={state}>{children}</SiteInfoContext.Provider>;
}

export function useSiteInfo(): SiteInfoState {
  return useContext(SiteInfoContext);
}
