import { Edit } from 'react-admin';
import { usePageTitle } from '../../layout/usePageTitle';
import { StockItemForm } from './StockItemForm';

export default function StockItemEdit() {
  usePageTitle('Stock item');
  return (
    <Edit resource="stock-items" title="Stock item" mutationMode="pessimistic" redirect="show">
      <StockItemForm />
    </Edit>
  );
}
