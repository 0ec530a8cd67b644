import { Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { FileSummary, RunData, RunError } from '../../../../common/api/sync';
import { STATUS_COLOURS, statusLabel } from './syncLabels';
import { SyncResultsTable } from './SyncResults';

export function summaryText(s: FileSummary | null | undefined): string {
  if (!s) return '';
  const parts = [`${s.rows} rows`, `${s.applied} applied`, `${s.unchanged} unchanged`, `${s.unmatched} unmatched`, `${s.skipped} skipped`];
  if (s.errors) parts.push(`${s.errors} errors`);
  return parts.join(' · ');
}

function errorWhere(e: RunError): string {
  const where = [e.constituentId ? `#${e.constituentId}` : '', e.file ?? '', e.row ? `row ${e.row}` : '', e.email ?? ''].filter(Boolean).join(', ');
  return where ? `${where}: ` : '';
}

export function RunErrors({ errors }: { errors: readonly RunError[] }) {
  if (!errors.length) return null;
  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        Errors ({errors.length})
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, color: 'error.main' }} aria-label="Errors">
        {errors.map((e, i) => (
          <Typography component="li" variant="body2" key={i} sx={{ overflowWrap: 'anywhere' }}>
            {errorWhere(e)}
            {e.message}
            {e.kind ? ` (${e.kind})` : ''}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

function EmailList({ title, emails }: { title: string; emails: readonly string[] }) {
  return (
    <Box sx={{ flex: '1 1 280px', minWidth: 0 }}>
      <Typography variant="subtitle2" gutterBottom>
        {title} ({emails.length})
      </Typography>
      {emails.length ? (
        <Box component="ul" aria-label={title} sx={{ m: 0, pl: 3, maxHeight: 200, overflowY: 'auto' }}>
          {emails.map((email, i) => (
            <Typography component="li" variant="body2" key={`${email}-${i}`} sx={{ overflowWrap: 'anywhere' }}>
              {email}
            </Typography>
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          None
        </Typography>
      )}
    </Box>
  );
}

/** Everything a run record says: results, files, errors, opt-in and opt-out lists. */
export function RunDetail({ data }: { data: RunData }) {
  const files = data.files ?? [];
  const isFileRun = data.kind === 'unsubscribe' || data.kind === 'export80' || data.kind === 'export92';
  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      {data.note ? (
        <Typography variant="body2" color="text.secondary">
          {data.note}
        </Typography>
      ) : null}
      {data.results?.length ? (
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            Results ({data.results.length})
          </Typography>
          <SyncResultsTable results={data.results} />
        </Box>
      ) : null}
      {files.length ? (
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            Files ({files.length})
          </Typography>
          <Table size="small" aria-label="Files">
            <TableHead>
              <TableRow>
                <TableCell>File name</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Summary</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {files.map((f) => (
                <TableRow key={f.name}>
                  <TableCell>{f.name}</TableCell>
                  <TableCell>
                    <Chip size="small" label={statusLabel(f.status)} color={STATUS_COLOURS[f.status] ?? 'default'} />
                  </TableCell>
                  <TableCell>{summaryText(f.summary)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : null}
      <RunErrors errors={data.errors ?? []} />
      {!isFileRun || data.optInList?.length || data.optOutList?.length ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3 }}>
          <EmailList title="Opt-in list" emails={data.optInList ?? []} />
          <EmailList title="Opt-out list" emails={data.optOutList ?? []} />
        </Box>
      ) : null}
    </Stack>
  );
}
