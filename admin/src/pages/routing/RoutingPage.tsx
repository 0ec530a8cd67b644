// Setup → Routing: a site's routing rules in order (the first that matches a line decides), the
// default that ends the list, the floor's capacity per product type and day, and Test rules.
import { useEffect, useState } from 'react';
import { Title, useGetList, useNotify } from 'react-admin';
import { DndContext, closestCenter, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Alert, Box, Button, Card, CardContent, IconButton, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import type { RoutingRuleSet, RoutingView } from '../../../../common/api/routing';
import { api, ApiError, fieldErrorsOf } from '../../providers/api';
import { RequireAccess } from '../../components/RequireAccess';
import { ActionFields } from './ActionFields';
import { RuleEditor } from './RuleEditor';
import { TestRulesDialog } from './TestRulesDialog';
import { cleanThen, cleanWhen, newRule } from './routingForm';

const EMPTY: RoutingRuleSet = { rules: [], default: { action: 'provider' }, capacity: [] };

/** The draft as the API takes it: empty conditions and fields an action does not take left out. */
const toSave = (set: RoutingRuleSet): RoutingRuleSet => ({
  rules: set.rules.map((r) => ({ ...r, when: cleanWhen(r.when), then: cleanThen(r.then) })),
  default: cleanThen(set.default),
  capacity: set.capacity,
});

function RoutingEditor() {
  const notify = useNotify();
  const { data: sites } = useGetList('sites', { pagination: { page: 1, perPage: 200 }, sort: { field: 'name', order: 'ASC' } });
  const [siteId, setSiteId] = useState<string>('');
  const [draft, setDraft] = useState<RoutingRuleSet>(EMPTY);
  const [routed, setRouted] = useState<Record<string, number>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);

  useEffect(() => {
    if (!siteId && sites?.length) setSiteId(String(sites[0].id));
  }, [sites, siteId]);
  useEffect(() => {
    if (!siteId) return;
    void api<RoutingView>(`/api/sites/${siteId}/routing`).then((v) => {
      setDraft({ rules: v.rules, default: v.default, capacity: v.capacity });
      setRouted(v.routedLast30Days);
      setErrors({});
      setProblem(null);
    });
  }, [siteId]);

  const save = async () => {
    try {
      const v = await api<RoutingView>(`/api/sites/${siteId}/routing`, { method: 'PUT', body: toSave(draft) });
      setRouted(v.routedLast30Days);
      setErrors({});
      setProblem(null);
      notify('Routing rules saved', { type: 'success' });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setErrors(fieldErrorsOf(err.body));
      setProblem(err.message);
    }
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = draft.rules.findIndex((r) => r.id === active.id);
    const to = draft.rules.findIndex((r) => r.id === over.id);
    setDraft({ ...draft, rules: arrayMove(draft.rules, from, to) });
  };
  const setRule = (i: number, rule: RoutingRuleSet['rules'][number]) => setDraft({ ...draft, rules: draft.rules.map((r, j) => (j === i ? rule : r)) });

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Routing" />
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <TextField select size="small" label="Site" value={siteId} onChange={(e) => setSiteId(e.target.value)} sx={{ minWidth: 220 }}>
          {(sites ?? []).map((s) => (
            <MenuItem key={s.id} value={String(s.id)}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" onClick={() => setDraft({ ...draft, rules: [...draft.rules, newRule()] })}>
          Add rule
        </Button>
        <Button variant="outlined" onClick={() => setTesting(true)} disabled={!siteId}>
          Test rules
        </Button>
        <Button variant="contained" onClick={save} disabled={!siteId}>
          Save
        </Button>
      </Stack>
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      )}
      <Typography variant="h6">Rules (the first that matches a line decides)</Typography>
      <DndContext collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={draft.rules.map((r) => r.id)} strategy={verticalListSortingStrategy}>
          <Stack spacing={1} sx={{ my: 1 }}>
            {draft.rules.map((rule, i) => (
              <RuleEditor
                key={rule.id}
                rule={rule}
                index={i}
                count={draft.rules.length}
                routed={routed[rule.id] ?? 0}
                errors={errors}
                onChange={(r) => setRule(i, r)}
                onMove={(to) => setDraft({ ...draft, rules: arrayMove(draft.rules, i, to) })}
                onDelete={() => setDraft({ ...draft, rules: draft.rules.filter((_, j) => j !== i) })}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle1">Otherwise (default) — {routed.default ?? 0} lines in 30 days</Typography>
          <ActionFields then={draft.default} onChange={(then) => setDraft({ ...draft, default: then })} errors={errors} at="default" />
        </CardContent>
      </Card>
      <Typography variant="h6">Floor capacity</Typography>
      <Table size="small" aria-label="Floor capacity" sx={{ maxWidth: 640 }}>
        <TableHead>
          <TableRow>
            <TableCell>Product type</TableCell>
            <TableCell>Units a day</TableCell>
            <TableCell>Cut-off (HH:MM)</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {draft.capacity.map((c, i) => {
            const set = (patch: Partial<typeof c>) => setDraft({ ...draft, capacity: draft.capacity.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
            const err = (f: string) => errors[`capacity.${i}.${f}`];
            return (
              <TableRow key={i}>
                <TableCell>
                  <TextField size="small" value={c.productType} onChange={(e) => set({ productType: e.target.value })} error={Boolean(err('productType'))} helperText={err('productType')} slotProps={{ htmlInput: { 'aria-label': 'Product type' } }} />
                </TableCell>
                <TableCell>
                  <TextField size="small" type="number" value={c.unitsPerDay} onChange={(e) => set({ unitsPerDay: Number(e.target.value) })} error={Boolean(err('unitsPerDay'))} helperText={err('unitsPerDay')} slotProps={{ htmlInput: { 'aria-label': 'Units a day' } }} />
                </TableCell>
                <TableCell>
                  <TextField size="small" value={c.cutoff} onChange={(e) => set({ cutoff: e.target.value })} error={Boolean(err('cutoff'))} helperText={err('cutoff')} slotProps={{ htmlInput: { 'aria-label': 'Cut-off' } }} />
                </TableCell>
                <TableCell>
                  <IconButton size="small" aria-label="Remove capacity" onClick={() => setDraft({ ...draft, capacity: draft.capacity.filter((_, j) => j !== i) })}>
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Button sx={{ mt: 1 }} onClick={() => setDraft({ ...draft, capacity: [...draft.capacity, { productType: 'Card', unitsPerDay: 100, cutoff: '16:00' }] })}>
        Add capacity
      </Button>
      {siteId && <TestRulesDialog siteId={siteId} draft={toSave(draft)} open={testing} onClose={() => setTesting(false)} />}
    </Box>
  );
}

export function RoutingPage() {
  return (
    <RequireAccess resource="routing" action="list">
      <RoutingEditor />
    </RequireAccess>
  );
}

export default RoutingPage;
