// react-admin 5.15 still hands MUI 9 props that MUI 9 removed: `InputProps` on TextField (it lands on
// the root <div> as `inputprops="[object Object]"`, with React's "does not recognize the `InputProps`
// prop" error in development) and `inputRef` on FormControlLabel (the switch never gets the form's
// ref). react-admin already passes the same values as `slotProps`, so the old props are dropped here,
// in both the build and the admin tests. Each rewrite must match: a react-admin upgrade that changes
// the code fails the build, and then this file can go.
import type { Plugin } from 'vite';

interface Rewrite {
  file: RegExp;
  from: string;
  to: string;
}

const REWRITES: readonly Rewrite[] = [
  {
    file: /ra-ui-materialui\/dist\/input\/ResettableTextField\.js$/,
    from: 'value: value, InputProps: inputProps, disabled:',
    to: 'value: value, ...(muiMajor >= 6 ? {} : { InputProps: inputProps }), disabled:',
  },
  {
    file: /ra-ui-materialui\/dist\/input\/BooleanInput\.js$/,
    from: 'React.createElement(FormControlLabel, { inputRef: field.ref, control: React.createElement(Switch, { id: id,',
    to: 'React.createElement(FormControlLabel, { control: React.createElement(Switch, { slotProps: { input: { ref: field.ref } }, id: id,',
  },
  {
    file: /ra-ui-materialui\/dist\/input\/AutocompleteInput\.js$/,
    from: 'InputProps: mergedTextFieldProps, ...mergedSlotProps,',
    to: '...(mergedSlotProps ?? { slotProps: { ...params.slotProps, input: { ...params.slotProps?.input, ...mergedTextFieldProps } } }),',
  },
];

export function raMuiCompat(): Plugin {
  return {
    name: 'presswork:ra-mui9-compat',
    enforce: 'pre',
    transform(code, id) {
      const path = id.split('?')[0].replaceAll('\\', '/');
      const rewrite = REWRITES.find((r) => r.file.test(path));
      if (!rewrite) return null;
      if (!code.includes(rewrite.from)) {
        throw new Error(`raMuiCompat: ${path} changed (no "${rewrite.from}"); check whether react-admin now supports MUI 9 and drop the rewrite`);
      }
      return { code: code.replace(rewrite.from, rewrite.to), map: null };
    },
  };
}
