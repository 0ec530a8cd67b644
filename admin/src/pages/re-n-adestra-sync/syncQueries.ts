// Queries of the sync screen, cached per site; a save or a run invalidates what it changed.
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { AppDataProvider } from '../../providers/dataProvider';

export const syncKeys = {
  all: ['re-n-adestra-sync'] as const,
  sites: () => [...syncKeys.all, 'sites'] as const,
  site: (site: string) => [...syncKeys.all, 'site', site] as const,
  configs: (site: string) => [...syncKeys.site(site), 'configs'] as const,
  status: (site: string) => [...syncKeys.site(site), 'status'] as const,
  runs: (site: string) => [...syncKeys.site(site), 'runs'] as const,
  files: (site: string, kind: string) => [...syncKeys.site(site), 'files', kind] as const,
  processed: (site: string, kind: string) => [...syncKeys.site(site), 'processed', kind] as const,
  connection: (site: string) => [...syncKeys.site(site), 'connection'] as const,
  consent: (site: string) => [...syncKeys.site(site), 'consent'] as const,
  subscriptions: (site: string) => [...syncKeys.site(site), 'subscriptions'] as const,
  dayPreview: (site: string, day: string) => [...syncKeys.site(site), 'day-preview', day] as const,
};

/** The four jobs' configs (hours) and the export links. */
export function useSyncConfigs(site: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: syncKeys.configs(site), queryFn: () => dataProvider.getSyncConfigs(site), retry: false });
}

/** When each job runs next and how its last run ended; refreshed every 30 s, faster while one runs. */
export function useSyncStatus(site: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: syncKeys.status(site),
    queryFn: () => dataProvider.getSyncStatus(site),
    retry: false,
    refetchInterval: (query) => (query.state.data?.jobs?.some((j) => j.running) ? 3000 : 30_000),
  });
}

/** Whether the site's Raiser's Edge is connected or must be connected again. */
export function useReConnection(site: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: syncKeys.connection(site), queryFn: () => dataProvider.getReConnection(site), retry: false });
}
