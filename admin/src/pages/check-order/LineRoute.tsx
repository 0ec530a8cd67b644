// Why a line went where it did (Check order): the routing rule that decided it, or the person who
// chose, with when — from the line's `route` as the order API answers it.
import { Typography } from '@mui/material';
import { ROUTING_ACTION_NAMES, type LineRouting } from '../../../../common/api/routing';
import { formatDateTime } from '../../lib/format';

/** "Rule: Cards in house", "Rule: Otherwise (the default)" or "Manual, by Ada Admin". */
export function routedBy(route: LineRouting): string {
  if (route.by === 'manual') return `Manual, by ${route.byName ?? 'a person'}`;
  if (route.ruleId === null) return 'Rule: Otherwise (the default)';
  return route.ruleName ? `Rule: ${route.ruleName}` : `Rule: ${route.ruleId} (no longer in the rules)`;
}

export function LineRoute({ route }: { route: LineRouting | undefined }) {
  if (!route) return <Typography variant="body2" color="text.secondary">Not routed</Typography>;
  const where = `${ROUTING_ACTION_NAMES[route.action]}${route.destination ? ` (${route.destination})` : ''}`;
  return (
    <>
      <Typography variant="body2">{routedBy(route)}</Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {where}, {formatDateTime(route.at)}
      </Typography>
      {route.reason ? (
        <Typography variant="caption" color={route.action === 'hold' ? 'warning.main' : 'text.secondary'} component="div">
          {route.reason}
        </Typography>
      ) : null}
    </>
  );
}
