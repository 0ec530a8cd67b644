import { useEffect, useRef, useState } from 'react';
import { TextField, type SxProps, type Theme } from '@mui/material';
import { DAY_PLACEHOLDER, formatDay, parseDay } from '../lib/format';

export interface DayInputProps {
  label: string;
  /** The day as YYYY-MM-DD, '' when empty. */
  value: string;
  /** A day typed in full (YYYY-MM-DD) or cleared (''); null while the text is not a date. */
  onChange: (day: string | null) => void;
  /** The caller's own error (e.g. "Please enter the date"); the field's own wins while the text is not a date. */
  error?: string | null;
  helperText?: string;
  sx?: SxProps<Theme>;
}

/**
 * A day as the rest of the app writes it, DD/MM/YYYY, whatever the browser's locale (a native date
 * input shows MM/DD/YYYY in an en-US Chromium). An impossible date says so under the field once
 * the user leaves it or has typed a whole date.
 */
export function DayInput({ label, value, onChange, error, helperText, sx }: DayInputProps) {
  const [text, setText] = useState(() => formatDay(value));
  const [problem, setProblem] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  // The day last sent up (null: the text is not a date). Another value comes from the caller (a
  // reset) and replaces the text; callers keep their last day while the text is not a date.
  const sent = useRef<string | null>(value);
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setText(formatDay(value));
    setProblem(null);
  }, [value]);

  const change = (next: string) => {
    setText(next);
    setTouched(false);
    const parsed = parseDay(next);
    setProblem(parsed.error ?? null);
    sent.current = parsed.error === undefined ? parsed.day : null;
    onChange(sent.current);
  };

  const shownProblem = problem && (touched || text.trim().length >= DAY_PLACEHOLDER.length) ? problem : null;
  const shownError = shownProblem ?? error ?? null;
  return (
    <TextField
      label={label}
      size="small"
      value={text}
      placeholder={DAY_PLACEHOLDER}
      onChange={(e) => change(e.target.value)}
      onBlur={() => setTouched(true)}
      error={Boolean(shownError)}
      helperText={shownError ?? helperText ?? DAY_PLACEHOLDER}
      autoComplete="off"
      fullWidth={false}
      sx={sx}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
    />
  );
}
