// react-admin's NumberInput hands MUI an `inputProps` prop this MUI no longer knows, which lands on
// the page as a junk attribute: a TextInput of type number, read back as a number, does the same job.
import { TextInput, type TextInputProps } from 'react-admin';

const toNumber = (v: string) => (v === '' || v === null || v === undefined ? null : Number(v));

/** A number field of a react-admin form; `min` and `step` go to the browser's own input. */
export function NumberTextInput({ min, step = 1, ...props }: Omit<TextInputProps, 'type' | 'parse'> & { min?: number; step?: number | 'any' }) {
  return <TextInput {...props} type="number" parse={toNumber} slotProps={{ htmlInput: { min, step, inputMode: step === 1 ? 'numeric' : 'decimal' } }} />;
}
