import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Title, useGetList } from 'react-admin';
import { Alert, Box, Button, Card, CircularProgress, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { PrintProfile } from '../../../../common/api/printProfiles';
import { RequireAccess } from '../../components/RequireAccess';
import { SitePicker } from '../../components/SitePicker';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import { listPrintProfiles, uploadPrintProfile } from '../../providers/printProfiles';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Upload an ICC file for a site or for every site; the server's refusal (not CMYK, a display profile…) is shown as it says it. */
function UploadProfile({ onUploaded }: { onUploaded: (p: PrintProfile) => void }) {
  const [site, setSite] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<PrintProfile | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const saved = await uploadPrintProfile(file, site);
      setDone(saved);
      setFile(null);
      onUploaded(saved);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="form" onSubmit={submit} sx={{ p: 2, pt: 1 }} aria-label="Upload a print profile">
      <Typography variant="subtitle1" component="h2" gutterBottom>
        Upload a profile
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The ICC file (.icc or .icm) your printer or print provider gives you for the paper you print on: a CMYK output profile such as FOGRA39 or GRACoL. Then choose it for a site under
        List Sites → the site → Print files.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
          {file ? file.name : 'Choose the ICC file'}
          <input hidden type="file" accept=".icc,.icm,application/vnd.iccprofile" aria-label="ICC profile file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Button>
        <SitePicker label="For" allLabel="Every site" value={site} onChange={setSite} width={240} />
        <Button type="submit" variant="contained" disabled={!file || busy} startIcon={busy ? <CircularProgress size={16} /> : undefined}>
          Upload
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          {`“${done.name}” is profile ${done.id}.`}
        </Alert>
      ) : null}
    </Box>
  );
}

function PrintProfilesView() {
  usePageTitle('Print profiles');
  const [list, setList] = useState<PrintProfile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { data: sites } = useGetList<{ id: number; name: string }>('sites', { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' } });
  const siteName = (id: number | null) => (id === null ? 'Every site' : (sites?.find((s) => s.id === id)?.name ?? `Site ${id}`));

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      setList(await listPrintProfiles(undefined, signal));
    } catch (err) {
      if (!signal?.aborted) setError(errorText(err));
    }
  }, []);
  useEffect(() => {
    const abort = new AbortController();
    void load(abort.signal);
    return () => abort.abort();
  }, [load]);

  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Print profiles" />
      <UploadProfile onUploaded={() => void load()} />
      {error ? <Alert severity="error">{error}</Alert> : null}
      <TableContainer>
        <Table size="small" aria-label="Print profiles">
          <TableHead>
            <TableRow>
              <TableCell>Number</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>For</TableCell>
              <TableCell>Kind</TableCell>
              <TableCell>Size</TableCell>
              <TableCell>Uploaded</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list ?? []).map((p) => (
              <TableRow key={p.id} data-testid={`print-profile-${p.id}`}>
                <TableCell>{p.id}</TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>{p.name}</TableCell>
                <TableCell>{siteName(p.siteId)}</TableCell>
                <TableCell>{`${p.colorSpace} output, ICC v${p.version}`}</TableCell>
                <TableCell>{kb(p.size)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.createdAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list && !list.length ? (
          <Typography variant="body2" sx={{ p: 2 }}>
            No profile uploaded yet: print files carry the bundled CMYK profile.
          </Typography>
        ) : null}
      </TableContainer>
    </Card>
  );
}

/** /print-profiles (admin): the printers' colour profiles, uploaded and listed by name. */
export function PrintProfilesPage() {
  return (
    <RequireAccess resource="print-profiles" action="list">
      <PrintProfilesView />
    </RequireAccess>
  );
}

export default PrintProfilesPage;
