import { useCallback } from 'react';
import { Title, TopToolbar, useDataProvider } from 'react-admin';
import { Box, Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router-dom';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { RequireAccess } from '../../components/RequireAccess';
import { usePagedList } from '../../lib/usePagedList';
import { useViewportWidth } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { DesignCard } from './DesignCard';

/** Below this window width the grid shows two columns instead of four (MUI's md breakpoint). */
export const DESIGN_GRID_NARROW_BELOW = 900;

export function designGridColumns(windowWidth: number): 2 | 4 {
  return windowWidth < DESIGN_GRID_NARROW_BELOW ? 2 : 4;
}

function DesignsView() {
  usePageTitle('Product Designs');
  const dataProvider = useDataProvider<AppDataProvider>();
  const fetchPage = useCallback((page: number) => dataProvider.getDesigns({ page }), [dataProvider]);
  const list = usePagedList(fetchPage);
  const columns = designGridColumns(useViewportWidth());

  return (
    <Box sx={{ mb: 4 }}>
      <Title title="Product Designs" />
      <TopToolbar>
        <Button component={Link} to="/design/new" variant="contained" size="small" startIcon={<AddIcon />}>
          Create
        </Button>
      </TopToolbar>
      <PagedListError list={list} />
      <Box
        data-testid="designs-grid"
        data-columns={columns}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
      >
        {list.items.map((design) => (
          <DesignCard key={design.id} design={design} />
        ))}
      </Box>
      <PagedListFooter list={list} emptyText="No design found" />
    </Box>
  );
}

/** /designs: the designs of the user's site (admins: all), newest first. */
export function DesignsPage() {
  return (
    <RequireAccess resource="designs" action="list">
      <DesignsView />
    </RequireAccess>
  );
}

export default DesignsPage;
