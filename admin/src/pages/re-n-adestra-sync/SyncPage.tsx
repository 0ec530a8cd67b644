import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { RedirectOutcome } from '../../components/RedirectOutcome';
import { Title, useDataProvider, usePermissions } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, FormControl, InputLabel, MenuItem, Select, Tab, Tabs, Typography } from '@mui/material';
import type { Role } from '../../../../common/api/sites';
import { RequireAccess } from '../../components/RequireAccess';
import { LoadingScreen } from '../../layout/LoadingScreen';
import { useSiteInfo } from '../../layout/SiteInfoContext';
import { usePageTitle } from '../../layout/usePageTitle';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { FileSyncArea } from './FileSyncArea';
import { isReView, ReToAdestraArea, type ReView } from './ReToAdestraArea';
import { AREAS, isArea, SCREEN_TITLE, type Area } from './syncLabels';
import { syncKeys } from './syncQueries';

function SyncAreas({ site }: { site: string }) {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab');
  const area: Area = isArea(tab) ? tab : 're';
  const viewParam = params.get('view');
  const view: ReView = isReView(viewParam) ? viewParam : 'single';
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set(key, value);
        if (key === 'tab' && value !== 're') next.delete('view');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <Tabs value={area} onChange={(_, v: Area) => set('tab', v)} aria-label="Sync areas" variant="scrollable" scrollButtons="auto" sx={{ borderBottom: 1, borderColor: 'divider', px: 1, contain: 'inline-size' }}>
        {AREAS.map((a) => (
          <Tab key={a.value} value={a.value} label={a.label} id={`sync-tab-${a.value}`} aria-controls={`sync-panel-${a.value}`} />
        ))}
      </Tabs>
      {/* keyed by site: a site change starts each area afresh */}
      <Box role="tabpanel" id={`sync-panel-${area}`} aria-labelledby={`sync-tab-${area}`} sx={{ p: 2 }} key={`${site}-${area}`}>
        {area === 're' ? <ReToAdestraArea site={site} view={view} onViewChange={(v) => set('view', v)} /> : <FileSyncArea site={site} kind={area} />}
      </Box>
    </>
  );
}

/** Admins: the sites with the sync, one chosen (?site=slug, else the first). */
function AdminSyncView() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [params, setParams] = useSearchParams();
  const sites = useQuery({ queryKey: syncKeys.sites(), queryFn: () => dataProvider.getSyncSites(), retry: false });
  const list = sites.data ?? [];
  const wanted = params.get('site');
  const current = list.find((s) => s.slug === wanted) ?? list[0];

  useEffect(() => {
    if (current && wanted !== current.slug) {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set('site', current.slug);
          return next;
        },
        { replace: true },
      );
    }
  }, [current, wanted, setParams]);

  if (sites.isPending) return <LoadingScreen />;
  if (sites.error) return <Alert severity="error" sx={{ m: 2 }}>{errorMessage(sites.error)}</Alert>;
  if (!current) {
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        No site has the sync set up yet (its settings need RE_BASE_URL and ADESTRA_BASE_URL).
      </Alert>
    );
  }
  return (
    <>
      <Box sx={{ px: 2, pt: 1 }}>
        <FormControl size="small" sx={{ width: { xs: '100%', sm: 320 } }}>
          <InputLabel id="sync-site-label">Site</InputLabel>
          <Select
            labelId="sync-site-label"
            label="Site"
            value={current.slug}
            onChange={(e) =>
              setParams((p) => {
                const next = new URLSearchParams(p);
                next.set('site', String(e.target.value));
                return next;
              })
            }
          >
            {list.map((s) => (
              <MenuItem key={s.slug} value={s.slug}>
                {s.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>
      <SyncAreas site={current.slug} />
    </>
  );
}

/** Users: their own site, when it has the sync. */
function UserSyncView() {
  const { site, loading } = useSiteInfo();
  if (loading && !site) return <LoadingScreen />;
  if (!site?.slug || !site.features?.sync) {
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        The RE &amp; Adestra sync is not set up for {site?.name ?? 'your site'}.
      </Alert>
    );
  }
  return <SyncAreas site={site.slug} />;
}

/** What Blackbaud's redirect back to our callback ended in (?reConnect=ok|failed&reConnectMessage=…), until dismissed. */
const ConnectOutcome = () => <RedirectOutcome outcomeParam="reConnect" messageParam="reConnectMessage" okValue="ok" sx={{ mx: 2, mt: 1 }} />;

function SyncView() {
  usePageTitle(SCREEN_TITLE);
  const { permissions, isPending } = usePermissions<Role | null>();
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title={SCREEN_TITLE} />
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography variant="h6" component="h1">
          {SCREEN_TITLE}
        </Typography>
      </Box>
      <ConnectOutcome />
      {isPending ? <LoadingScreen /> : permissions === 'admin' ? <AdminSyncView /> : <UserSyncView />}
    </Card>
  );
}

/** /re-n-adestra-sync: Raiser's Edge ↔ Adestra: admins, and users of a site with the sync. */
export function SyncPage() {
  return (
    <RequireAccess resource="re-n-adestra-sync" action="list">
      <SyncView />
    </RequireAccess>
  );
}

export default SyncPage;
