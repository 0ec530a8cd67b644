import { Datagrid, EditButton, List, SimpleList, TextField, TopToolbar } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router-dom';
import { ListError } from '../../components/ListError';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import type { Site } from '../../../../common/api/sites';
import { formatDate } from '../../lib/format';
import { useSmallScreen } from '../../lib/useViewport';
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

/** The site's colour as a dot before its name (the small-screen rows). */
function ColourDot({ site }: { site: Site }) {
  const colour = site.theme?.mainColor || '#000000';
  return <Box aria-label={`Main colour ${colour}`} sx={{ width: 24, height: 24, borderRadius: '50%', border: 1, borderColor: 'divider', bgcolor: colour }} />;
}

function SiteListView() {
  usePageTitle('List Sites');
  const small = useSmallScreen();
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
      {small ? (
        // Phones: one row a site (name, slug, created), the whole row opens it.
        <SimpleList<Site>
          primaryText={(site) => site.name}
          secondaryText={(site) => site.slug}
          tertiaryText={(site) => formatDate(site.createdAt)}
          leftAvatar={(site) => <ColourDot site={site} />}
          linkType="edit"
          empty={<NoSites />}
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false} empty={<NoSites />}>
          <ColourSwatchField label="Colour" sortable={false} />
          <TextField source="name" label="Name" />
          <LogoField label="Logo" sortable={false} />
          <TextField source="slug" label="Slug" />
          <DateField source="createdAt" label="Created at" />
          <EditButton />
        </Datagrid>
      )}
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
