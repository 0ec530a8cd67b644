// Needs attention (/attention, and staff's home page): every problem on the floor, worst first,
// each row opening the screen where it is fixed. The list is the shared poll's (useAttention).
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Card, Chip, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import { ATTENTION_KINDS, KIND_LABEL, attentionSummary, type AttentionAnswer, type AttentionItem, type Severity } from '../../../../common/api/attention';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { formatDateTime, formatTimeSince } from '../../lib/format';
import { useAttention } from './useAttention';
import { RouteNowButton } from './RouteNowButton';

export const SEVERITY_COLOUR: Record<Severity, 'error' | 'warning' | 'info'> = { critical: 'error', warning: 'warning', info: 'info' };
const SEVERITY_LABEL: Record<Severity, string> = { critical: 'Critical', warning: 'Warning', info: 'Note' };

/** A problem's row; a line a routing rule held also has Route now, beside the link, not in it. */
function AttentionRow({ item, onRouted }: { item: AttentionItem; onRouted(): void }) {
  if (item.kind === 'routingHeld' && item.lineId && item.orderId && item.siteId !== null) {
    return (
      <ListItem disablePadding divider secondaryAction={<RouteNowButton item={{ ...item, lineId: item.lineId, orderId: item.orderId }} onRouted={onRouted} />} sx={{ '& .MuiListItemSecondaryAction-root': { display: 'flex', gap: 1 }, '& > .MuiListItemButton-root': { pr: 17 } }}>
        <ProblemLink item={item} divider={false} />
      </ListItem>
    );
  }
  return <ProblemLink item={item} divider />;
}

function ProblemLink({ item, divider }: { item: AttentionItem; divider: boolean }) {
  return (
    <ListItemButton component={RouterLink} to={item.link} divider={divider} data-kind={item.kind} sx={{ alignItems: 'flex-start', gap: 1.5, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
      <Stack direction={{ xs: 'row', sm: 'column' }} spacing={0.75} sx={{ minWidth: { sm: 150 }, pt: 0.5, alignItems: { xs: 'center', sm: 'flex-start' } }}>
        <Chip size="small" color={SEVERITY_COLOUR[item.severity]} label={SEVERITY_LABEL[item.severity]} />
        <Typography variant="caption" color="text.secondary">
          {KIND_LABEL[item.kind]}
        </Typography>
      </Stack>
      <ListItemText
        primary={item.title}
        secondary={`${item.siteName ? `${item.siteName} · ` : ''}Since ${formatDateTime(item.since)} (${formatTimeSince(item.since)})`}
        slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
        sx={{ my: 0.5, minWidth: 0 }}
      />
    </ListItemButton>
  );
}

/** "and 12 more" for each kind the answer cut short (the server sends at most 100 of a kind). */
function moreOf(answer: AttentionAnswer): Array<{ kind: AttentionItem['kind']; more: number }> {
  return ATTENTION_KINDS.map((kind) => ({ kind, more: answer.counts[kind] - answer.items.filter((i) => i.kind === kind).length })).filter((m) => m.more > 0);
}

export function AttentionPage() {
  usePageTitle('Needs attention');
  const { answer, error, refresh } = useAttention();
  return (
    <Box sx={{ mt: 2, maxWidth: 1100 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, flexGrow: 1 }}>
          Needs attention
        </Typography>
        {answer && answer.counts.total > 0 ? (
          <Typography color="text.secondary" aria-live="polite">
            {attentionSummary(answer.counts)}
          </Typography>
        ) : null}
        <Button size="small" startIcon={<RefreshIcon />} onClick={refresh}>
          Refresh
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {error}
        </Alert>
      ) : null}
      {!answer ? (
        error ? null : <Typography color="text.secondary">Loading…</Typography>
      ) : answer.items.length === 0 ? (
        <Card variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <CheckCircleOutlineIcon color="success" sx={{ fontSize: 48, mb: 1 }} />
          <Typography variant="h6" component="p">
            Nothing needs attention
          </Typography>
          <Typography color="text.secondary">Every order is on time and nothing has failed. This page checks again every 30 seconds.</Typography>
        </Card>
      ) : (
        <Card variant="outlined">
          <List disablePadding aria-label="Problems, worst first">
            {answer.items.map((item) => (
              <AttentionRow key={`${item.kind} ${item.siteId} ${item.orderId ?? ''} ${item.lineId ?? ''} ${item.jobId ?? ''} ${item.link} ${item.since}`} item={item} onRouted={refresh} />
            ))}
          </List>
          {moreOf(answer).map(({ kind, more }) => (
            <Typography key={kind} color="text.secondary" sx={{ px: 2, py: 1 }}>
              {KIND_LABEL[kind]}: and {more} more
            </Typography>
          ))}
        </Card>
      )}
    </Box>
  );
}

/** /attention: signed-in users only (Home shows the same list to staff without this wrapper). */
export default function AttentionScreen() {
  return (
    <RequireAccess resource="attention" action="list">
      <AttentionPage />
    </RequireAccess>
  );
}
