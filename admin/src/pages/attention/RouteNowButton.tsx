// Route now, on a line a routing rule held (Needs attention): staff or an admin route it again by
// today's rules, or choose where it goes — made in house or sent to HP Site Flow — recorded as
// their choice. POST /api/sites/:site/routing/route-now {orderId, lineId, to?}.
import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Radio, RadioGroup, Typography } from '@mui/material';
import type { AttentionItem } from '../../../../common/api/attention';
import { ROUTING_ACTION_NAMES, type RoutingAction } from '../../../../common/api/routing';
import { api } from '../../providers/api';
import { errorMessage } from '../../lib/format';

type Choice = 'rules' | 'inHouse' | 'provider';

interface RoutedLine {
  lineId: string;
  action: RoutingAction;
  reason: string | null;
}

/** What happened to the line, in a sentence. */
function outcome(line: RoutedLine | undefined): string {
  if (!line) return 'Nothing was routed: the line is no longer held';
  if (line.action === 'hold') return `Still held by today's rules: ${line.reason ?? 'no reason given'}`;
  return `Routed: ${ROUTING_ACTION_NAMES[line.action]}`;
}

export function RouteNowButton({ item, onRouted }: { item: AttentionItem & { lineId: string; orderId: string }; onRouted(): void }) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<Choice>('rules');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function route() {
    setBusy(true);
    setError(null);
    try {
      const body = { orderId: item.orderId, lineId: item.lineId, ...(choice === 'rules' ? {} : { to: choice }) };
      const answer = await api<{ lines: RoutedLine[] }>(`/api/sites/${item.siteId}/routing/route-now`, { method: 'POST', body, idempotencyKey: crypto.randomUUID() });
      const line = answer.lines.find((l) => l.lineId === item.lineId);
      setDone(outcome(line));
      if (line?.action !== 'hold') {
        setOpen(false);
        onRouted();
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        onClick={() => {
          setOpen(true);
          setDone(null);
          setError(null);
        }}
        aria-label={`Route now: line ${item.lineId}`}
        sx={{ flexShrink: 0, alignSelf: 'center' }}
      >
        Route now
      </Button>
      {done && !open ? (
        <Typography variant="body2" role="status" sx={{ alignSelf: 'center' }}>
          {done}
        </Typography>
      ) : null}
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`route-now-${item.lineId}`}>
        <DialogTitle id={`route-now-${item.lineId}`}>Route line {item.lineId} now</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 1 }}>{item.title}</Typography>
          <RadioGroup value={choice} onChange={(e) => setChoice(e.target.value as Choice)} aria-label="Where the line goes">
            <FormControlLabel value="rules" control={<Radio />} label="By today's routing rules" />
            <FormControlLabel value="inHouse" control={<Radio />} label="Make in house (a print job now)" />
            <FormControlLabel value="provider" control={<Radio />} label="Send to HP Site Flow (its own provider order)" />
          </RadioGroup>
          {done ? (
            <Alert severity="info" sx={{ mt: 1 }}>
              {done}
            </Alert>
          ) : null}
          {error ? (
            <Alert severity="error" sx={{ mt: 1 }}>
              {error}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button variant="contained" onClick={route} disabled={busy}>
            Route now
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
