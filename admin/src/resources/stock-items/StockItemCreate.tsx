import { Create } from 'react-admin';
import { usePageTitle } from '../../layout/usePageTitle';
import { StockItemForm } from './StockItemForm';

/** A new item: the site's own (an admin's is shared by every site). */
export default function StockItemCreate() {
  usePageTitle('New stock item');
  return (
    <Create resource="stock-items" title="New stock item" redirect="show" mutationMode="pessimistic">
      <StockItemForm create />
    </Create>
  );
}
