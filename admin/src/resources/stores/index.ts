import { lazy } from 'react';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';

const StoreList = lazy(() => import('./StoreList'));
const StoreEdit = lazy(() => import('./StoreEdit'));

export default {
  list: StoreList,
  edit: StoreEdit,
  icon: StorefrontOutlinedIcon,
  recordRepresentation: 'siteName',
};
