import { useCallback, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Title, useDataProvider, usePermissions } from 'react-admin';
import { Box, Card, CardActionArea, CardContent, Chip, Link, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, Typography } from '@mui/material';
import { BATCH_STATES, type Batch, type BatchState } from '../../../../common/api/batches';
import type { Role } from '../../../../common/api/sites';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { RequireAccess } from '../../components/RequireAccess';
import { SitePicker } from '../../components/SitePicker';
import { usePageTitle } from '../../layout/usePageTitle';
import { usePagedList } from '../../lib/usePagedList';
import { useSmallScreen, useWindowFocus } from '../../lib/useViewport';
import type { AppDataProvider } from '../../providers/dataProvider';
import { batchTitle, fillingText, itemText, STATE_LABELS, whoWhen } from './batchText';

/** The state tab lives in the address (?state=printed; Open has none), so Back, a reload and a link keep it. */
function useStateTab(): [BatchState, (state: BatchState) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('state');
  const state: BatchState = BATCH_STATES.find((s) => s === asked) ?? 'open';
  const setState = useCallback(
    (next: BatchState) =>
      setParams(
        (current) => {
          const changed = new URLSearchParams(current);
          if (next === 'open') changed.delete('state');
          else changed.set('state', next);
          return changed;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [state, setState];
}

function FillingChip({ batch }: { batch: Batch }) {
  const text = fillingText(batch);
  return text ? <Chip size="small" color="info" variant="outlined" label={text} sx={{ mt: 0.5, maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal' } }} /> : null;
}

/** A phone's row: the batch as a card that opens it. */
function BatchCard({ batch, showSite }: { batch: Batch; showSite: boolean }) {
  const secondary = [itemText(batch.item), `${batch.sheet} sheet`, `${batch.jobIds.length} job${batch.jobIds.length === 1 ? '' : 's'}`, showSite ? batch.siteName : null].filter(Boolean).join(' · ');
  return (
    <Card variant="outlined" component="li" data-testid={`batch-${batch.id}`} sx={{ listStyle: 'none' }}>
      <CardActionArea component={RouterLink} to={`/batches/${batch.id}`}>
        <CardContent sx={{ '&:last-child': { pb: 2 } }}>
          <Typography sx={{ fontWeight: 600 }}>{batchTitle(batch)}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {secondary}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Created {whoWhen(batch.createdByName, batch.createdAt)}
          </Typography>
          {batch.state !== 'open' ? (
            <Typography variant="body2" color="text.secondary">
              {STATE_LABELS[batch.state]} {whoWhen(batch.stateChangedByName, batch.stateChangedAt)}
            </Typography>
          ) : null}
          <FillingChip batch={batch} />
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

function BatchRow({ batch, showSite }: { batch: Batch; showSite: boolean }) {
  return (
    <TableRow data-testid={`batch-${batch.id}`} hover sx={{ '&:last-child td': { borderBottom: 0 } }}>
      <TableCell sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
        <Link component={RouterLink} to={`/batches/${batch.id}`}>
          {batchTitle(batch)}
        </Link>
      </TableCell>
      <TableCell>
        {itemText(batch.item)}
        <FillingChip batch={batch} />
      </TableCell>
      {showSite ? <TableCell>{batch.siteName ?? ''}</TableCell> : null}
      <TableCell>{batch.sheet}</TableCell>
      <TableCell align="right">{batch.jobIds.length}</TableCell>
      <TableCell>{whoWhen(batch.createdByName, batch.createdAt)}</TableCell>
      <TableCell>{batch.state === 'open' ? '' : `${STATE_LABELS[batch.state]} ${whoWhen(batch.stateChangedByName, batch.stateChangedAt)}`}</TableCell>
    </TableRow>
  );
}

function BatchesView() {
  usePageTitle('Batches');
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Role | null>();
  const isAdmin = permissions === 'admin';
  const small = useSmallScreen();
  const [state, setState] = useStateTab();
  const [clientId, setClientId] = useState('');
  const fetchPage = useCallback((page: number) => dataProvider.getBatches({ page, state, clientId }), [dataProvider, state, clientId]);
  const list = usePagedList(fetchPage);
  // Other operators move batches on too: show the current list whenever the operator comes back.
  useWindowFocus(list.reload);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Batches" />
      {/* A phone shares its width among the four tabs: none hides behind a scroll arrow. */}
      <Tabs
        value={state}
        onChange={(_event, next: BatchState) => setState(next)}
        aria-label="Batches by state"
        variant={small ? 'fullWidth' : 'standard'}
        sx={{ px: { xs: 0, sm: 2 }, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: { xs: 0, sm: 90 } } }}
      >
        {BATCH_STATES.map((s) => (
          <Tab key={s} value={s} label={STATE_LABELS[s]} id={`batches-tab-${s}`} aria-controls="batches-panel" />
        ))}
      </Tabs>
      <div role="tabpanel" id="batches-panel" aria-labelledby={`batches-tab-${state}`}>
        {isAdmin ? (
          <Box sx={{ p: 2, pb: 1 }}>
            <SitePicker label="Client" allLabel="All clients" value={clientId} onChange={setClientId} width={240} />
          </Box>
        ) : null}
        <PagedListError list={list} />
        {small ? (
          <Box component="ul" aria-label="Batches" sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 1, m: 0 }}>
            {list.items.map((batch) => (
              <BatchCard key={batch.id} batch={batch} showSite={isAdmin} />
            ))}
          </Box>
        ) : (
          <TableContainer sx={{ contain: 'inline-size' }}>
            <Table size="small" aria-label="Batches">
              <TableHead>
                <TableRow>
                  {['Batch', 'Product and size', ...(isAdmin ? ['Client'] : []), 'Sheet', 'Jobs', 'Created', 'Last move'].map((label) => (
                    <TableCell key={label} align={label === 'Jobs' ? 'right' : undefined} sx={{ fontWeight: 700 }}>
                      {label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.items.map((batch) => (
                  <BatchRow key={batch.id} batch={batch} showSite={isAdmin} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <PagedListFooter list={list} emptyText={<BatchesFromJobs none={`No ${STATE_LABELS[state].toLowerCase()} batches`} />} />
      </div>
    </Card>
  );
}

/** An empty list says where batches come from: Jobs, where jobs are ticked and batched. */
function BatchesFromJobs({ none }: { none: string }) {
  return (
    <>
      <span>{none}</span>. Batches are made from{' '}
      <Link component={RouterLink} to="/print-jobs">
        Jobs
      </Link>
      : tick jobs of one kind there, then <b>Create batch</b>.
    </>
  );
}

/** /batches: the batches of each state on the floor, newest first; a batch opens its page. */
export function BatchesPage() {
  return (
    <RequireAccess resource="batches" action="list">
      <BatchesView />
    </RequireAccess>
  );
}

export default BatchesPage;
