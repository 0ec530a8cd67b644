import { CreateButton, Datagrid, DateField, EditButton, List, ReferenceField, TextField, TopToolbar } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { ListError } from '../../components/ListError';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';

export interface PlainRecordScreens {
  /** The admin REST resource (resellers, instances). */
  resource: string;
  /** Plural title ("Resellers") and the name of one ("reseller"). */
  title: string;
  one: string;
}

function RecordListView({ resource, title, one }: PlainRecordScreens) {
  usePageTitle(title);
  const empty = (
    <Box sx={{ textAlign: 'center', py: 6, width: '100%' }}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        No {one} yet
      </Typography>
      <CreateButton resource={resource} label={`Add ${one}`} variant="contained" />
    </Box>
  );
  return (
    <List
      resource={resource}
      title={title}
      actions={
        <TopToolbar>
          <CreateButton resource={resource} label={`Add ${one}`} />
        </TopToolbar>
      }
      empty={empty}
      error={<ListError />}
      perPage={25}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" label="Name" />
        <TextField source="field1" label="Code" />
        <ReferenceField source="siteId" reference="sites" label="Site" link={false}>
          <TextField source="name" />
        </ReferenceField>
        <DateField source="createdAt" label="Created at" locales="en-GB" />
        <EditButton />
      </Datagrid>
    </List>
  );
}

export function RecordList(screens: PlainRecordScreens) {
  return (
    <RequireAccess resource={screens.resource} action="list">
      <RecordListView {...screens} />
    </RequireAccess>
  );
}
