import { useState, type FormEvent } from 'react';
import { Box, Button, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

export interface OrderSearch {
  id?: string;
  name?: string;
}

/** Digits are a store order id (the server also tries them as an order number); anything else is an order name. */
export function searchOf(text: string): OrderSearch {
  const value = text.trim();
  if (!value) return {};
  return /^\d+$/.test(value) ? { id: value } : { name: value };
}

export function OrderSearchForm({ initial, onSearch }: { initial: string; onSearch: (search: OrderSearch) => void }) {
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = searchOf(text);
    if (search.id || search.name) onSearch(search);
  };
  return (
    <Box component="form" role="search" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField
        size="small"
        label="Order id or name"
        placeholder="e.g. 5500000001 or #1001"
        value={text}
        onChange={(e) => setText(e.target.value)}
        fullWidth={false}
        sx={{ width: 340 }}
      />
      <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={!text.trim()}>
        Search
      </Button>
    </Box>
  );
}
