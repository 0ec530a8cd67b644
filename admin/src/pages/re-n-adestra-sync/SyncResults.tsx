import type { ReactNode } from 'react';
import { Box, Chip, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { SyncResult } from '../../../../common/api/sync';
import { FactList } from '../../components/FactList';
import { formatDate } from '../../lib/format';
import { ACTION_COLOURS, ACTION_LABELS, reasonLabel } from './syncLabels';

export function ContactLink({ result }: { result: SyncResult }) {
  if (!result.link) return null;
  return (
    <Link href={result.link} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      Contact in Adestra <OpenInNewIcon sx={{ fontSize: 14 }} />
    </Link>
  );
}

export function ActionChip({ result }: { result: SyncResult }) {
  return <Chip size="small" label={ACTION_LABELS[result.action] ?? result.action} color={ACTION_COLOURS[result.action] ?? 'default'} />;
}

/** The consent as read in the CRM, with its date. */
export function consentText(result: SyncResult): string {
  if (!result.consent) return 'None';
  return result.consentDate ? `${result.consent} (${formatDate(result.consentDate)})` : result.consent;
}

/** One constituent's outcome in full (single check). */
export function SyncResultCard({ result }: { result: SyncResult }) {
  const rows: Array<[string, ReactNode]> = [
    ['Constituent', `${result.name ?? ''}${result.name ? ' ' : ''}(#${result.constituentId})`],
    ['Email', result.email ?? 'No email address'],
    ['Category', result.category ?? '—'],
    ['Consent', consentText(result)],
    [
      'Action',
      <Box component="span" key="action" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <ActionChip result={result} />
        <span>{reasonLabel(result.reason)}</span>
      </Box>,
    ],
    ['Adestra', result.link ? <ContactLink result={result} key="link" /> : result.contactId ? `Contact ${result.contactId}` : 'No contact in Adestra'],
  ];
  return <FactList rows={rows} testId="sync-result" spacious />;
}

/** The per-constituent results of a run. */
export function SyncResultsTable({ results, label = 'Results' }: { results: readonly SyncResult[]; label?: string }) {
  if (!results.length) return null;
  return (
    <TableContainer sx={{ maxHeight: 480 }}>
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>Constituent</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Category</TableCell>
            <TableCell>Consent</TableCell>
            <TableCell>Action</TableCell>
            <TableCell>Adestra</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {results.map((r, i) => (
            <TableRow key={`${r.constituentId}-${i}`} data-testid={`result-${r.constituentId}`}>
              <TableCell>
                {r.name ?? ''}
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  #{r.constituentId}
                </Typography>
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.email ?? '—'}</TableCell>
              <TableCell>{r.category ?? '—'}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{consentText(r)}</TableCell>
              <TableCell>
                <ActionChip result={r} />
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                  {reasonLabel(r.reason)}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <ContactLink result={r} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
