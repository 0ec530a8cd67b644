import { useState } from 'react';
import { InputHelperText, useInput, type Validator } from 'react-admin';
import { TextField } from '@mui/material';

const mustBeObject: Validator = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'Must be a JSON object, e.g. {"key": "value"}';

const pretty = (value: unknown) => (value === undefined || value === null ? '{}' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A free-form JSON object, edited as text; the form holds the parsed object (or the text while it is not valid). */
export function JsonInput({ source, label }: { source: string; label: string }) {
  const { field, fieldState } = useInput({ source, validate: mustBeObject, defaultValue: {} });
  const [text, setText] = useState(() => pretty(field.value));
  const change = (next: string) => {
    setText(next);
    try {
      field.onChange(JSON.parse(next));
    } catch {
      field.onChange(next);
    }
  };
  // react-admin stores a validator's message wrapped (@@react-admin@@…): InputHelperText reads it back.
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  return (
    <TextField
      label={label}
      value={text}
      onChange={(e) => change(e.target.value)}
      onBlur={field.onBlur}
      multiline
      minRows={6}
      fullWidth
      error={Boolean(error)}
      helperText={<InputHelperText error={error} helperText="JSON object" />}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
    />
  );
}
