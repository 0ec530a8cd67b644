import { Create, Edit, useGetOne, useRecordContext } from 'react-admin';
import { Box } from '@mui/material';
import { useParams } from 'react-router-dom';
import type { Site } from '../../../../common/api/sites';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { RaisersEdgeConnection } from '../../pages/re-n-adestra-sync/RaisersEdgeConnection';
import { SiteForm } from './SiteForm';
import { SiteUsers } from './SiteUsers';

function SiteTitle() {
  const record = useRecordContext<Site>();
  return <span>Site {record ? `"${record.name}"` : ''}</span>;
}

function SiteCreateView() {
  usePageTitle('New Site');
  return (
    <Create resource="sites" title="New Site" redirect="edit">
      <SiteForm />
    </Create>
  );
}

/** The site's CRM connection (Connect / Reconnect, consent names, subscriptions), once its sync settings are saved. */
function SiteSyncConnection({ id }: { id: string }) {
  const { data: site } = useGetOne<Site>('sites', { id: Number(id) }, { enabled: /^\d+$/.test(id) });
  const has = (key: string) => Boolean(site?.settings?.env?.some((v) => v.key === key && v.value));
  if (!site || !has('RE_BASE_URL') || !has('ADESTRA_BASE_URL')) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <RaisersEdgeConnection site={site.slug} />
    </Box>
  );
}

function SiteEditView({ id }: { id: string }) {
  usePageTitle('Edit Site');
  return (
    <>
      <Edit resource="sites" id={id} title={<SiteTitle />} mutationMode="pessimistic" redirect={false} actions={false}>
        <SiteForm />
      </Edit>
      <SiteSyncConnection id={id} />
      <SiteUsers siteId={/^\d+$/.test(id) ? Number(id) : id} />
    </>
  );
}

/** `/sites/:id`, where id "new" creates a site (spec §2). */
export function SiteEdit() {
  const { id = 'new' } = useParams<{ id: string }>();
  return (
    <RequireAccess resource="sites" action={id === 'new' ? 'create' : 'edit'}>
      {id === 'new' ? <SiteCreateView /> : <SiteEditView key={id} id={id} />}
    </RequireAccess>
  );
}

export default SiteEdit;
