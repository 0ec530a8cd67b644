import { Box, Chip, List, ListItem, Typography } from '@mui/material';
import { historyActionLabel, historyActorLabel, type HistoryEntry, type HistorySubjectKind } from '../../../common/api/history';
import { formatDateTime } from '../lib/format';

/** What an order's entry tells of, when not the order itself. */
const SUBJECT: Partial<Record<HistorySubjectKind, string>> = { job: 'Job', send: 'Send', batch: 'Batch', sync: 'Sync run' };

export type TimelineEntry = HistoryEntry & { kind?: HistorySubjectKind; subjectId?: string };

/** A history, oldest first: when (DD/MM/YYYY HH:mm), who or which rule, what, from → to, and why. */
export function Timeline({ entries, empty = 'Nothing recorded yet.', showSubject = false }: { entries: readonly TimelineEntry[]; empty?: string; showSubject?: boolean }) {
  if (!entries.length) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <List dense aria-label="History" sx={{ py: 0 }}>
      {entries.map((e, i) => (
        <ListItem key={`${e.at}-${i}`} divider sx={{ display: 'block', px: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
            <Typography variant="body2" color="text.secondary" component="span" sx={{ minWidth: '9.5em' }}>
              {formatDateTime(e.at)}
            </Typography>
            {showSubject && e.kind && SUBJECT[e.kind] ? <Chip size="small" variant="outlined" label={`${SUBJECT[e.kind]} #${e.subjectId}`} /> : null}
            <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
              {historyActionLabel(e.action, e.kind)}
            </Typography>
            {/* A change that left the status as it was says so ("still sent"), never "sent → sent". */}
            {e.from && e.from === e.to ? (
              <Typography variant="body2" component="span">
                (still {e.from})
              </Typography>
            ) : e.from || e.to ? (
              <Typography variant="body2" component="span">
                {e.from ?? '—'} → {e.to ?? '—'}
              </Typography>
            ) : null}
            <Typography variant="body2" color="text.secondary" component="span">
              by {historyActorLabel(e.actor)}
            </Typography>
          </Box>
          {e.reason ? (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              Why: {e.reason}
            </Typography>
          ) : null}
        </ListItem>
      ))}
    </List>
  );
}
