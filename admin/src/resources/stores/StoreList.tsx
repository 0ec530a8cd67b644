import { BooleanField, Datagrid, EditButton, FunctionField, List, TextField, useRecordContext } from 'react-admin';
import type { Store } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';
import { connectionWords, disconnectedText, hasConnection } from './types';
import { ListError } from '../../components/ListError';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { LastReconcileField } from './LastReconcileField';
import { SyncFromStoreButton } from './SyncFromStoreButton';
import { WebhookUrlField } from './WebhookUrlField';

function SyncField(_props: { label?: string }) {
  const store = useRecordContext<Store>();
  // Nothing to pull from without a connection (the server would refuse).
  return store && hasConnection(store) ? <SyncFromStoreButton siteSlug={store.siteSlug} /> : null;
}

function StoreListView() {
  usePageTitle('Stores');
  return (
    <List resource="stores" title="Stores" actions={false} error={<ListError />} sort={{ field: 'siteName', order: 'ASC' }} perPage={25}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="siteName" label="Site" />
        <TextField source="shopDomain" label="Shop domain" sortable={false} emptyText="not connected" />
        <WebhookUrlField label="Webhook URL" sortable={false} />
        <FunctionField<Store>
          label="Connection"
          sortable={false}
          render={(s) => disconnectedText(s, formatDateTime) ?? connectionWords(s)}
        />
        <BooleanField source="autoSendToHP" label="Auto-send to HP" sortable={false} />
        <LastReconcileField label="Last reconciled" sortable={false} />
        <SyncField label="Missed orders" />
        <EditButton />
      </Datagrid>
    </List>
  );
}

/** /stores: each site's Shopify store (admin). */
export function StoreList() {
  return (
    <RequireAccess resource="stores" action="list">
      <StoreListView />
    </RequireAccess>
  );
}

export default StoreList;
