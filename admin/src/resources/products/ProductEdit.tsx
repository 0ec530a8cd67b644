import { Create, Edit } from 'react-admin';
import { useParams } from 'react-router-dom';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { ProductForm } from './ProductForm';

interface ProductInput {
  storeSku?: string;
  designId?: number | string;
  productName?: string | null;
  productType?: string | null;
  storeProductId?: string | null;
  siteId?: number | string | null;
}

/** Only the mapping's own fields go to the server. */
const productBody = ({ storeSku, designId, productName, productType, storeProductId, siteId }: ProductInput) => ({
  storeSku,
  designId,
  productName: productName || null,
  productType: productType || null,
  storeProductId: storeProductId || null,
  ...(siteId ? { siteId } : {}),
});

function ProductCreateView() {
  usePageTitle('New Product');
  return (
    <Create resource="products" title="New Product" redirect="list" transform={productBody}>
      <ProductForm />
    </Create>
  );
}

function ProductEditView({ id }: { id: string }) {
  usePageTitle('Edit Product');
  return (
    <Edit resource="products" id={id} title="Edit Product" mutationMode="pessimistic" redirect="list" transform={productBody}>
      <ProductForm />
    </Edit>
  );
}

export function ProductCreate() {
  return (
    <RequireAccess resource="products" action="create">
      <ProductCreateView />
    </RequireAccess>
  );
}

export function ProductEdit() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <RequireAccess resource="products" action="edit">
      <ProductEditView key={id} id={id} />
    </RequireAccess>
  );
}

export default ProductEdit;
