// List Orders' bulk toolbar, in the look of Jobs' (react-admin's BulkActionsToolbar): "N selected",
// "Select all N matching", then Make in house — each selected order's print jobs made in the Jobs
// queue, a few orders a call with a progress bar, then one sentence and the refusals, with why.
import { useState } from 'react';
import { Confirm, useDataProvider } from 'react-admin';
import { Alert, Box, Button, Tooltip } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import type { MakeInHouseRefusalCode, MakeInHouseResult, OrderMadeInHouse } from '../../../../common/api/orders';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { JobSelection } from '../print-jobs/useJobSelection';
import { BulkSelectionBar } from '../../components/BulkSelectionBar';

/** Orders a call: each may render personalised pages, so progress moves every few. */
export const MAKE_IN_HOUSE_CHUNK = 5;

/** A refusal's reason in a few words, as the summary counts them. */
const CODE_WORDS: Record<MakeInHouseRefusalCode, string> = {
  cancelled: 'cancelled',
  unpaid: 'unpaid',
  shipped: 'shipped',
  'at-provider': 'sent to HP',
  ecard: 'e-card',
  'not-found': 'not found',
  'cannot-make': 'cannot be made',
  waiting: 'in the change window or awaiting a proof',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "3 orders made in house (5 jobs); 1 already in Jobs; 2 refused: 1 cancelled, 1 sent to HP".
 * An order is refused for its first reason; lines left out of a made order are listed, not counted.
 */
export function makeInHouseSummary(result: MakeInHouseResult): string {
  const made = result.orders.filter((o) => o.outcome === 'made');
  const already = result.orders.filter((o) => o.outcome === 'already');
  const refused = result.orders.filter((o) => o.outcome === 'refused');
  const jobs = made.reduce((n, o) => n + o.made.length, 0);
  const parts = [`${plural(made.length, 'order')} made in house (${plural(jobs, 'job')})`];
  if (already.length) parts.push(`${already.length} already in Jobs`);
  if (refused.length) {
    const counts = new Map<string, number>();
    for (const o of refused) {
      const word = CODE_WORDS[o.refused[0]?.code ?? 'cannot-make'];
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    parts.push(`${refused.length} refused: ${[...counts].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${n} ${w}`).join(', ')}`);
  }
  return parts.join('; ');
}

/** Each refusal, named by its order (and line): what the operator reads below the sentence. */
function refusalLines(orders: OrderMadeInHouse[]): string[] {
  return orders.flatMap((o) => o.refused.map((r) => `${o.name ?? o.orderId}${r.lineId ? ` line ${r.lineId}` : ''}: ${r.reason}`));
}

interface Outcome {
  severity: 'success' | 'warning' | 'error';
  text: string;
  refused: string[];
}

/** A selected order: its site (an admin's selection spans clients) and its store order id. */
export const orderKey = (siteId: unknown, orderId: string) => `${String(siteId)}:${orderId}`;
const keyParts = (key: string) => {
  const at = key.indexOf(':');
  return { siteId: key.slice(0, at), orderId: key.slice(at + 1) };
};

export function MakeInHouseBar({ selection, onDone }: { selection: JobSelection; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [asking, setAsking] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const count = selection.ids.length;
  const busy = progress !== null;

  async function run() {
    setAsking(false);
    setOutcome(null);
    // One call per site and chunk: an admin's selection may hold orders of several clients.
    const bySite = new Map<string, string[]>();
    for (const key of selection.ids.map(String)) {
      const { siteId, orderId } = keyParts(key);
      bySite.set(siteId, [...(bySite.get(siteId) ?? []), orderId]);
    }
    const result: MakeInHouseResult = { orders: [] };
    let done = 0;
    setProgress({ done, total: count });
    try {
      for (const [siteId, ids] of bySite) {
        for (let i = 0; i < ids.length; i += MAKE_IN_HOUSE_CHUNK) {
          const chunk = ids.slice(i, i + MAKE_IN_HOUSE_CHUNK);
          const answer = await dataProvider.makeOrdersInHouse(chunk, Number(siteId));
          result.orders.push(...answer.orders);
          done += chunk.length;
          setProgress({ done, total: count });
        }
      }
      const refused = result.orders.some((o) => o.refused.length);
      setOutcome({ severity: refused ? 'warning' : 'success', text: `${makeInHouseSummary(result)}.`, refused: refusalLines(result.orders) });
      selection.clear();
    } catch (error) {
      const sofar = result.orders.length ? ` (${makeInHouseSummary(result)} before it stopped)` : '';
      setOutcome({ severity: 'error', text: `${errorMessage(error)}${sofar}`, refused: refusalLines(result.orders) });
    } finally {
      setProgress(null);
      onDone();
    }
  }

  return (
    <Box>
      <BulkSelectionBar selection={selection} progress={progress && { label: 'Making in house', ...progress }}>
        <Tooltip title="Make each order's print jobs in the Jobs queue, printed here (not sent to HP)">
          <span>
            <Button size="small" startIcon={<PrintIcon />} disabled={busy || count === 0} onClick={() => setAsking(true)}>
              Make in house
            </Button>
          </span>
        </Tooltip>
      </BulkSelectionBar>
      {outcome ? (
        <Alert severity={outcome.severity} onClose={() => setOutcome(null)} sx={{ mx: 2, my: 1 }} data-testid="make-in-house-summary">
          {outcome.text}
          {outcome.refused.length ? (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, maxHeight: 160, overflowY: 'auto' }} aria-label="Not made in house">
              {outcome.refused.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </Box>
          ) : null}
        </Alert>
      ) : null}
      <Confirm
        isOpen={asking}
        title={`Make ${plural(count, 'order')} in house`}
        content="Their print jobs are made and put in the Jobs queue, to be printed here. Cancelled, unpaid, shipped and e-card orders and lines HP Site Flow has are left out, saying why."
        confirm="Make in house"
        onConfirm={() => void run()}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
