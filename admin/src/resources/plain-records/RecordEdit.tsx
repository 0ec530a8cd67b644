import { Create, Edit, required, SimpleForm, TextInput } from 'react-admin';
import { useParams } from 'react-router-dom';
import { JsonInput } from '../../components/JsonInput';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import type { PlainRecordScreens } from './RecordList';

interface PlainRecordInput {
  name?: string | null;
  field1?: string | null;
  data?: Record<string, unknown>;
}

/** Only the record's own fields go to the server: name, code (field1) and data. */
const recordBody = ({ name, field1, data }: PlainRecordInput) => ({ name: name ?? null, field1: field1 || null, data: data ?? {} });

function RecordForm() {
  return (
    <SimpleForm sx={{ maxWidth: 720 }}>
      <TextInput source="name" label="Name" validate={required()} fullWidth />
      <TextInput source="field1" label="Code" fullWidth />
      <JsonInput source="data" label="Data" />
    </SimpleForm>
  );
}

function CreateView({ resource, one }: PlainRecordScreens) {
  const title = `New ${one[0].toUpperCase()}${one.slice(1)}`;
  usePageTitle(title);
  return (
    <Create resource={resource} title={title} redirect="list" transform={recordBody}>
      <RecordForm />
    </Create>
  );
}

function EditView({ resource, one, id }: PlainRecordScreens & { id: string }) {
  const title = `Edit ${one[0].toUpperCase()}${one.slice(1)}`;
  usePageTitle(title);
  return (
    <Edit resource={resource} id={id} title={title} mutationMode="pessimistic" redirect="list" transform={recordBody}>
      <RecordForm />
    </Edit>
  );
}

/** The upsert screen: `/<resource>/create` or `/<resource>/:id`. */
export function RecordEdit(screens: PlainRecordScreens) {
  const { id } = useParams<{ id: string }>();
  return (
    <RequireAccess resource={screens.resource} action={id ? 'edit' : 'create'}>
      {id ? <EditView key={id} {...screens} id={id} /> : <CreateView {...screens} />}
    </RequireAccess>
  );
}
