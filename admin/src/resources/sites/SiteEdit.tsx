import { Create, Edit, useRecordContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { Site } from '../../../../common/api/sites';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
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

function SiteEditView({ id }: { id: string }) {
  usePageTitle('Edit Site');
  return (
    <>
      <Edit resource="sites" id={id} title={<SiteTitle />} mutationMode="pessimistic" redirect={false} actions={false}>
        <SiteForm />
      </Edit>
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
