import { lazy } from 'react';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';

const StockItemList = lazy(() => import('./StockItemList'));
const StockItemCreate = lazy(() => import('./StockItemCreate'));
const StockItemEdit = lazy(() => import('./StockItemEdit'));
const StockItemShow = lazy(() => import('./StockItemShow'));

export default {
  list: StockItemList,
  create: StockItemCreate,
  edit: StockItemEdit,
  show: StockItemShow,
  icon: Inventory2OutlinedIcon,
  recordRepresentation: 'name',
};
