import { lazy } from 'react';
import CategoryIcon from '@mui/icons-material/Category';

const ProductList = lazy(() => import('./ProductList'));
const ProductEdit = lazy(() => import('./ProductEdit'));
const ProductCreate = lazy(() => import('./ProductEdit').then((m) => ({ default: m.ProductCreate })));

export default {
  list: ProductList,
  edit: ProductEdit,
  create: ProductCreate,
  icon: CategoryIcon,
  recordRepresentation: 'storeSku',
};
