// Test rules: the draft on screen run over the site's last N orders (or the orders named), showing
// where each line would go and how many units a day would land on the floor against its capacity.
// Nothing is saved or sent.
import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { ROUTING_ACTION_NAMES, type RoutingRuleSet, type RoutingTestResult } from '../../../../common/api/routing';
import { api, ApiError } from '../../providers/api';

interface Props {
  siteId: string | number;
  draft: RoutingRuleSet;
  open: boolean;
  onClose(): void;
}

export function TestRulesDialog({ siteId, draft, open, onClose }: Props) {
  const [last, setLast] = useState('20');
  const [orderIds, setOrderIds] = useState('');
  const [result, setResult] = useState<RoutingTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      const ids = orderIds.split(/[\s,]+/).filter(Boolean);
      const body = ids.length ? { rules: draft, orderIds: ids } : { rules: draft, last: Number(last) || 20 };
      setResult(await api<RoutingTestResult>(`/api/sites/${encodeURIComponent(String(siteId))}/routing/test`, { method: 'POST', body }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setRunning(false);
    }
  };
  const ruleName = (id: string | null) => (id === null ? 'Default' : (draft.rules.find((r) => r.id === id)?.name ?? id));
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullWidth>
      <DialogTitle>Test rules</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1} sx={{ my: 1 }}>
          <TextField size="small" type="number" label="Last N orders" value={last} onChange={(e) => setLast(e.target.value)} />
          <TextField size="small" label="…or order ids (comma-separated)" value={orderIds} onChange={(e) => setOrderIds(e.target.value)} sx={{ flex: 1 }} />
          <Button variant="contained" onClick={run} disabled={running}>
            {running ? 'Running…' : 'Run'}
          </Button>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        {result && (
          <>
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              In house per day
            </Typography>
            <Table size="small" aria-label="In house per day">
              <TableHead>
                <TableRow>
                  <TableCell>Day</TableCell>
                  <TableCell>Product type</TableCell>
                  <TableCell align="right">Units</TableCell>
                  <TableCell align="right">Capacity</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.perDay.map((d) => (
                  <TableRow key={`${d.day}-${d.productType}`}>
                    <TableCell>{d.day}</TableCell>
                    <TableCell>{d.productType}</TableCell>
                    <TableCell align="right">{d.units}</TableCell>
                    <TableCell align="right">{d.capacity ?? 'no limit'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              Lines ({result.lines.length})
            </Typography>
            <Table size="small" aria-label="Lines">
              <TableHead>
                <TableRow>
                  <TableCell>Order</TableCell>
                  <TableCell>SKU</TableCell>
                  <TableCell>Rule</TableCell>
                  <TableCell>Goes to</TableCell>
                  <TableCell>Why</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.lines.map((l) => (
                  <TableRow key={`${l.orderId}-${l.lineId}`}>
                    <TableCell>{l.orderName ?? l.orderId}</TableCell>
                    <TableCell>{l.sku}</TableCell>
                    <TableCell>{l.action === 'none' ? '' : ruleName(l.ruleId)}</TableCell>
                    <TableCell>{l.action === 'none' ? 'Nothing to make' : ROUTING_ACTION_NAMES[l.action]}{l.day ? ` (${l.day})` : ''}</TableCell>
                    <TableCell>{l.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
