import { CreateButton, Datagrid, EditButton, List, ReferenceField, TextField, TopToolbar } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { ListError } from '../../components/ListError';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';

function ProductListActions() {
  return (
    <TopToolbar>
      <CreateButton label="Add product" />
    </TopToolbar>
  );
}

function NoProducts() {
  return (
    <Box sx={{ textAlign: 'center', py: 6, width: '100%' }}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        No product mapping yet: orders map a SKU to the design with the same SKU.
      </Typography>
      <CreateButton label="Add product" variant="contained" />
    </Box>
  );
}

function ProductListView() {
  usePageTitle('Products');
  return (
    <List resource="products" title="Products" actions={<ProductListActions />} empty={<NoProducts />} error={<ListError />} perPage={25}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="storeSku" label="Store SKU" />
        <ReferenceField source="designId" reference="designs" label="Design" link={false}>
          <TextField source="name" />
        </ReferenceField>
        <TextField source="productName" label="Product name" />
        <TextField source="productType" label="Product type" />
        <TextField source="storeProductId" label="Store product id" />
        <ReferenceField source="siteId" reference="sites" label="Site" link={false} sortable={false}>
          <TextField source="name" />
        </ReferenceField>
        <EditButton />
      </Datagrid>
    </List>
  );
}

/** /products: store SKU → design mappings (with the product type). */
export function ProductList() {
  return (
    <RequireAccess resource="products" action="list">
      <ProductListView />
    </RequireAccess>
  );
}

export default ProductList;
