import { CreateButton, DataTable, EditButton, ExportButton, FunctionField, List, SearchInput, TopToolbar, useGetList, usePermissions } from 'react-admin';
import { Chip } from '@mui/material';
import type { StockItem } from '../../../../common/api/stock';
import { ListError } from '../../components/ListError';
import { usePageTitle } from '../../layout/usePageTitle';
import { StockMoveButton } from './StockMoveButton';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Name" />];

/** Low: at or under its reorder point (0: not watched). */
export const isLow = (i: StockItem) => i.reorderPoint > 0 && i.available <= i.reorderPoint;

function Actions() {
  return (
    <TopToolbar>
      <CreateButton />
      <ExportButton />
    </TopToolbar>
  );
}

/** Whose an item is in words: an admin sees each site's name; staff see only their own site's items and the shared ones. */
function useOwnerName(): (siteId: StockItem['siteId']) => string {
  const { permissions } = usePermissions();
  const admin = permissions === 'admin';
  const { data: sites } = useGetList<{ id: number; name: string }>('sites', { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' } }, { enabled: admin });
  return (siteId) => (siteId === null ? 'Shared' : admin ? (sites?.find((x) => x.id === siteId)?.name ?? `Site ${siteId}`) : 'This site');
}

/** Setup → Stock: a site's items and the shared ones, with what is on hand, reserved and available. */
export default function StockItemList() {
  usePageTitle('Stock');
  const ownerName = useOwnerName();
  return (
    <List resource="stock-items" title="Stock" filters={filters} actions={<Actions />} error={<ListError />} sort={{ field: 'name', order: 'ASC' }} perPage={25}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="name" label="Item" />
        <DataTable.Col label="Of" disableSort>
          <FunctionField<StockItem> render={(i) => ownerName(i.siteId)} sx={{ whiteSpace: 'nowrap' }} />
        </DataTable.Col>
        <DataTable.NumberCol source="onHand" label="On hand" />
        <DataTable.NumberCol source="reserved" label="Reserved" disableSort />
        <DataTable.Col source="available" label="Available">
          <FunctionField<StockItem> render={(i) => (isLow(i) ? <Chip size="small" color="warning" label={`${i.available} ${i.unit} — reorder`} /> : `${i.available} ${i.unit}`)} />
        </DataTable.Col>
        <DataTable.NumberCol source="reorderPoint" label="Reorder point" />
        <DataTable.NumberCol source="reorderQuantity" label="Reorder quantity" disableSort />
        <DataTable.Col label="" disableSort>
          <StockMoveButton kind="receive" />
          <StockMoveButton kind="count" />
          <EditButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
