import { SimpleForm, TextInput, required, minValue } from 'react-admin';
import { NumberTextInput } from '../../components/NumberTextInput';

/** An item's fields; on hand is set on create only (afterwards only Receive and Count change it, so each change is on the movements list). */
export function StockItemForm({ create = false }: { create?: boolean }) {
  return (
    <SimpleForm>
      <TextInput source="name" label="Name" validate={required()} helperText="As the floor calls it: Mugs 11 oz, Card blanks A5" />
      <TextInput source="unit" label="Unit" validate={required()} helperText="mugs, sheets, cards" />
      {create ? <NumberTextInput source="onHand" label="On hand now" min={0} validate={minValue(0)} /> : null}
      <NumberTextInput source="reorderPoint" label="Reorder point" min={0} validate={minValue(0)} helperText="Needs attention shows it at or under this many available (0: not watched)" />
      <NumberTextInput source="reorderQuantity" label="Reorder quantity" min={0} validate={minValue(0)} />
      <TextInput source="supplierNote" label="Supplier note" multiline fullWidth />
    </SimpleForm>
  );
}
