import { AutocompleteInput, FormDataConsumer, ReferenceInput, required, SelectInput, SimpleForm, TextInput, usePermissions } from 'react-admin';
import { PRODUCT_TYPES } from '../../../../common/design-doc/types';
import type { Role } from '../../../../common/api/sites';

export const PRODUCT_TYPE_CHOICES = PRODUCT_TYPES.map((type) => ({ id: type, name: type }));

function DesignInput({ siteId }: { siteId?: number | string | null }) {
  return (
    <ReferenceInput source="designId" reference="designs" filter={siteId ? { siteId } : {}} sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteInput
        label="Design"
        optionText="name"
        filterToQuery={(q: string) => (q ? { q } : {})}
        validate={required()}
        helperText="Lines with this SKU are printed from this design"
        sx={{ minWidth: 360 }}
      />
    </ReferenceInput>
  );
}

/** The store SKU → design mapping form (create and edit). */
export function ProductForm() {
  const { permissions } = usePermissions<Role | null>();
  return (
    <SimpleForm sx={{ maxWidth: 720 }}>
      {permissions === 'admin' ? (
        <ReferenceInput source="siteId" reference="sites" sort={{ field: 'name', order: 'ASC' }} perPage={500}>
          <SelectInput label="Site" optionText="name" helperText="Empty: your own site" sx={{ minWidth: 360 }} />
        </ReferenceInput>
      ) : null}
      <TextInput source="storeSku" label="Store SKU" validate={required()} fullWidth />
      <FormDataConsumer<{ siteId?: number | string | null }>>{({ formData }) => <DesignInput siteId={formData.siteId} />}</FormDataConsumer>
      <TextInput source="productName" label="Product name" helperText="Empty: the design's name" fullWidth />
      <SelectInput source="productType" label="Product type" choices={PRODUCT_TYPE_CHOICES} emptyText="The design's type" sx={{ minWidth: 240 }} />
      <TextInput source="storeProductId" label="Store product id" fullWidth />
    </SimpleForm>
  );
}
