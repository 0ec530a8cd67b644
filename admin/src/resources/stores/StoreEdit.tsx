import { BooleanInput, DeleteButton, Edit, Labeled, SaveButton, SelectInput, SimpleForm, TextField, TextInput, Toolbar, useRecordContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Stack, Typography } from '@mui/material';
import type { Store } from '../../../../common/api/orders';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { SECRET_MASK, hasConnection, isAppAuth, storeChanges } from './types';
import { useWatch } from 'react-hook-form';
import { ConnectionKindInputs } from './ConnectionKindInputs';
import { PrivacyRequestsPanel } from './PrivacyRequestsPanel';
import { LastReconcileField } from './LastReconcileField';
import { SyncFromStoreButton } from './SyncFromStoreButton';
import { InstallOutcome, StoreConnectionPanel } from './StoreConnectionPanel';
import { WebhookUrlField } from './WebhookUrlField';

function StoreTitle() {
  const record = useRecordContext<Store>();
  return <span>Store {record ? `of ${record.siteName}` : ''}</span>;
}

function SyncPanel() {
  const store = useRecordContext<Store>();
  if (!store) return null;
  return (
    <Labeled label="Missed orders (last reconciled)">
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <LastReconcileField />
        {/* Nothing to pull from without a connection (the server would refuse). */}
        {hasConnection(store) ? <SyncFromStoreButton siteSlug={store.siteSlug} /> : null}
      </Stack>
    </Labeled>
  );
}

function StoreToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton label="Disconnect" mutationMode="pessimistic" confirmColor="warning" confirmTitle="Disconnect this store?" confirmContent="The shop domain, the app’s credentials and the secrets are removed from the site." />
    </Toolbar>
  );
}

const SEND_WHEN_CHOICES = [
  { id: 'paid', name: 'Once paid (SHOPIFY_SEND_WHEN=paid)' },
  { id: 'created', name: 'As soon as created, paid or not' },
];

const secretHelp = `${SECRET_MASK} keeps the current secret; clear the field to remove it`;

/** The webhook secret: a legacy app's API secret key; for an app connection, only webhooks made by hand need one. */
function WebhookSecretInputs() {
  const auth = useWatch({ name: 'auth' }) as Store['auth'] | undefined;
  const app = isAppAuth(auth);
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {app ? 'Webhooks made by hand (optional)' : 'Webhook secret'}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {app
          ? 'The app’s webhooks are signed with its client secret: nothing to set here. Only webhooks made by hand under Settings → Notifications in Shopify are signed with the key shown there.'
          : 'A new webhook secret keeps the old one as the previous secret, so the store’s webhooks keep being accepted while you change it in Shopify.'}
      </Typography>
      <TextInput source="webhookSecret" label="Webhook secret" type="password" autoComplete="new-password" helperText={secretHelp} fullWidth />
      <TextInput source="previousSecret" label="Previous secret" type="password" autoComplete="new-password" helperText={secretHelp} fullWidth />
    </>
  );
}

/** Shopify's version names: quarterly YYYY-MM, or unstable (the server checks it too). */
const apiVersionProblem = (value: unknown) => (!value || /^(\d{4}-(0[1-9]|1[0-2])|unstable)$/.test(String(value).trim()) ? undefined : 'Write it as YYYY-MM (e.g. 2026-07) or unstable');

function StoreEditView({ id }: { id: string }) {
  usePageTitle('Edit Store');
  return (
    <Edit
      resource="stores"
      id={id}
      title={<StoreTitle />}
      mutationMode="pessimistic"
      redirect="list"
      actions={false}
      transform={(data: Store, options?: { previousData?: Store }) => storeChanges(data, options?.previousData)}
    >
      <SimpleForm toolbar={<StoreToolbar />} sx={{ maxWidth: 720 }}>
        {/* Back from Shopify's consent screen: the outcome first, where the eye lands. */}
        <InstallOutcome />
        <Labeled label="Site">
          <TextField source="siteName" />
        </Labeled>
        <Labeled label="Webhook URL (paste it into the store's webhook settings)">
          <WebhookUrlField />
        </Labeled>
        <SyncPanel />
        <TextInput source="shopDomain" label="Shop domain" helperText="The store's own name, e.g. my-shop.myshopify.com" fullWidth />
        <Typography variant="subtitle2" sx={{ mt: 1 }}>
          Connection to Shopify (orders, tracking back, missed orders, webhook registration)
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Secrets are shown as {SECRET_MASK} and kept unchanged unless you type a new one.
        </Typography>
        <ConnectionKindInputs />
        <TextInput source="apiVersion" label="API version" helperText="e.g. 2026-07; empty: the server's default" validate={apiVersionProblem} />
        <WebhookSecretInputs />
        <BooleanInput source="autoSendToHP" label="Send orders to HP automatically" helperText="When every line item maps to a design with an HP SKU" />
        <SelectInput
          source="sendWhen"
          label="Orders go to print"
          choices={SEND_WHEN_CHOICES}
          defaultValue="paid"
          helperText="Paid: an unpaid order waits for its payment, and Send HP asks first. A cancelled order never goes."
        />
        <StoreConnectionPanel />
        <PrivacyRequestsPanel />
      </SimpleForm>
    </Edit>
  );
}

/** /stores/:id (id = the site's id). */
export function StoreEdit() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <RequireAccess resource="stores" action="edit">
      <StoreEditView key={id} id={id} />
    </RequireAccess>
  );
}

export default StoreEdit;
