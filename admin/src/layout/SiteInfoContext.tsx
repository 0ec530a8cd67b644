import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import type { SiteInfo } from '../../../common/api/sites';
import { api } from '../providers/api';
import { SESSION_CHANGED_EVENT } from '../providers/session';


interface SiteInfoState {
  site: SiteInfo | null;
  /** True until the first answer (or failure) of GET /api/sites/info. */
  loading: boolean;
}

const SiteInfoContext = createContext<SiteInfoState>({ site: null, loading: false });

/** The site named by `slug` (`?site=`), else the signed-in user's, else the default one. */
export function fetchSiteInfo(slug?: string | null): Promise<SiteInfo | null> {
  const path = slug ? `/api/sites/info?site=${encodeURIComponent(slug)}` : '/api/sites/info';
  return api<{ data?: SiteInfo | null }>(path).then((data) => data?.data ?? null);
}

/**
 * The site the sign-in page is branded for (`/login?site=<slug>`). Only there: other screens use
 * `?site=` for their own choice of site (the sync), which must not rebrand the app.
 */
function useSignInSlug(): string | null {
  const { pathname, search } = useLocation();
  if (pathname !== '/login') return null;
  return new URLSearchParams(search).get('site')?.trim() || null;
}

/** White label (spec §1): the current site's settings, refetched whenever the session changes. */
export function SiteInfoProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SiteInfoState>({ site: null, loading: true });
  const slug = useSignInSlug();

  const load = useCallback(() => {
    let cancelled = false;
    fetchSiteInfo(slug)
      .catch(() => null) // no branding is better than no app
      .then((site) => {
        if (!cancelled) setState({ site, loading: false });
      });
    return () => {
      cancelled = true;
    };
  }, [slug]);

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
