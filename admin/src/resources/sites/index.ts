import { lazy } from 'react';
import StorefrontIcon from '@mui/icons-material/Storefront';

// Screens load lazily; the layout shows "Loading..." meanwhile.
const SiteList = lazy(() => import('./SiteList'));
const SiteEdit = lazy(() => import('./SiteEdit'));

export default {
  list: SiteList,
  edit: SiteEdit,
  icon: StorefrontIcon,
  recordRepresentation: 'name',
};
