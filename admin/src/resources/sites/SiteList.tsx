import { Datagrid, EditButton, List, TextField, TopToolbar } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router-dom';
import { ListError } from '../../components/ListError';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { ColourSwatchField, DateField, LogoField } from './SiteFields';

function AddSiteButton() {
  return (
    <Button component={Link} to="/sites/new" variant="contained" size="small" startIcon={<AddIcon />}>
      Add site
    </Button>
  );
}

function SiteListActions() {
  return (
    <TopToolbar>
      <AddSiteButton />
    </TopToolbar>
  );
}

function NoSites() {
  return (
    <Box sx={{ textAlign: 'center', py: 6, width: '100%' }}>
      <Typography variant="h6" color="text.secondary" sx={{ mb: 2 }}>
        No site found
      </Typography>
      <AddSiteButton />
    </Box>
  );
}

function SiteListView() {
  usePageTitle('List Sites');
  return (
    <List
      resource="sites"
      title="List Sites"
      actions={<SiteListActions />}
      empty={<NoSites />}
      error={<ListError />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false} empty={<NoSites />}>
        <ColourSwatchField label="Colour" sortable={false} />
        <TextField source="name" label="Name" />
        <LogoField label="Logo" sortable={false} />
        <TextField source="slug" label="Slug" />
        <DateField source="createdAt" label="Created at" />
        <EditButton />
      </Datagrid>
    </List>
  );
}

export function SiteList() {
  return (
    <RequireAccess resource="sites" action="list">
      <SiteListView />
    </RequireAccess>
  );
}

export default SiteList;
