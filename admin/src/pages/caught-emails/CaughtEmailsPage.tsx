import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Title } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Link, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import SendIcon from '@mui/icons-material/Send';
import type { CaughtEmail, CaughtEmailSummary } from '../../../../common/api/mailCatcher';
import { RequireAccess } from '../../components/RequireAccess';
import { SitePicker } from '../../components/SitePicker';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import { attachmentDataUrl, getCaughtEmail, listCaughtEmails, sendTestEmail, withInlineImages, type EmailTestAnswer } from '../../providers/mailCatcher';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function formatSize(bytes: number) {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** POST /api/test/send-email with a recipient: a real message through the site's mail server. */
function SendTestEmail({ onSent }: { onSent: () => void }) {
  const [site, setSite] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<EmailTestAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      const result = await sendTestEmail({ ...(site ? { site } : {}), ...(to.trim() ? { to: to.trim() } : {}) });
      setAnswer(result);
      onSent();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="form" onSubmit={submit} sx={{ p: 2, pt: 1 }} aria-label="Send a test e-mail">
      <Typography variant="subtitle1" component="h2" gutterBottom>
        Send a test e-mail
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <SitePicker label="Site" allLabel="My site" value={site} onChange={setSite} width={220} />
        <TextField size="small" type="email" label="To" value={to} onChange={(e) => setTo(e.target.value)} placeholder="someone@example.org" helperText="Empty: only the connection is checked" sx={{ width: 280 }} />
        <Button type="submit" variant="contained" startIcon={busy ? <CircularProgress size={16} /> : <SendIcon />} disabled={busy}>
          {to.trim() ? 'Send' : 'Check connection'}
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      ) : null}
      {answer ? (
        <Alert severity={answer.ok ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="email-test-answer">
          {answer.checks.map((c) => (
            <div key={c.step}>
              <strong>{c.step}</strong>
              {c.url ? ` (${c.url})` : ''}: {c.ok ? `ok${c.latencyMs !== null ? ` in ${c.latencyMs} ms` : ''}` : c.error}
            </div>
          ))}
          {answer.note ? <div>{answer.note}</div> : null}
        </Alert>
      ) : null}
    </Box>
  );
}

/** One message as received: headers, the HTML (sandboxed, inline images shown), the text part, the attachments. */
function CaughtEmailView({ id }: { id: number }) {
  const [mail, setMail] = useState<CaughtEmail | null>(null);
  const [error, setError] = useState<string | null>(null);
  // null until the inline images are fetched: the HTML is shown once, with them.
  const [images, setImages] = useState<Record<string, string> | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setMail(null);
    setError(null);
    setImages(null);
    setImageError(null);
    (async () => {
      const m = await getCaughtEmail(id, abort.signal);
      setMail(m);
      // The inline images the HTML names by Content-ID, fetched with our token; one that fails shows empty.
      const byCid: Record<string, string> = {};
      for (const a of m.attachments) {
        if (!a.cid || !m.html?.includes(`cid:${a.cid}`)) continue;
        try {
          byCid[a.cid] = await attachmentDataUrl(m.id, a.index, abort.signal);
        } catch (err) {
          if (!abort.signal.aborted) setImageError(errorText(err));
        }
      }
      if (!abort.signal.aborted) setImages(byCid);
    })().catch((err: unknown) => {
      if (!abort.signal.aborted) setError(errorText(err));
    });
    return () => abort.abort();
  }, [id]);

  async function download(index: number, filename: string | null) {
    try {
      const a = document.createElement('a');
      a.href = await attachmentDataUrl(id, index);
      a.download = filename ?? `attachment-${index}`;
      a.click();
    } catch (err) {
      setError(errorText(err));
    }
  }

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!mail) return <CircularProgress size={24} aria-label="Loading the e-mail" />;
  const headers: Array<[string, string]> = [
    ['From', mail.from],
    ['To', mail.to],
    ['Subject', mail.subject],
    ['Date', formatDateTime(mail.receivedAt)],
    ['Message-ID', mail.messageId ?? ''],
    ['Envelope', `${mail.envelope.from || '<>'} → ${mail.envelope.to.join(', ')}`],
  ];
  return (
    <Box aria-label={`E-mail ${mail.id}`} component="section">
      <Table size="small" aria-label="Headers" sx={{ mb: 2, '& th': { width: 120, fontWeight: 600, verticalAlign: 'top' } }}>
        <TableBody>
          {headers.map(([name, value]) => (
            <TableRow key={name}>
              <TableCell component="th" scope="row">
                {name}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {mail.html !== null ? (
        <>
          <Typography variant="subtitle2" component="h3">
            HTML
          </Typography>
          {imageError ? (
            <Alert severity="warning" sx={{ my: 1 }}>
              {imageError}
            </Alert>
          ) : null}
          {/* No scripts, no forms, no navigation: the message is shown, never run. */}
          {images ? (
            <Box component="iframe" title="HTML part" sandbox="" srcDoc={withInlineImages(mail.html, images)} sx={{ width: '100%', height: 640, resize: 'vertical', overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff', mb: 2 }} />
          ) : (
            <CircularProgress size={24} aria-label="Loading the inline images" sx={{ display: 'block', my: 2 }} />
          )}
        </>
      ) : null}
      <Typography variant="subtitle2" component="h3">
        Plain text
      </Typography>
      <Box component="pre" aria-label="Plain text part" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', bgcolor: 'action.hover', p: 1.5, borderRadius: 1, mt: 0.5, mb: 2, fontSize: 13 }}>
        {mail.text || '(no plain text part)'}
      </Box>
      <Typography variant="subtitle2" component="h3">
        Attachments
      </Typography>
      {mail.attachments.length ? (
        <ul aria-label="Attachments">
          {mail.attachments.map((a) => (
            <li key={a.index}>
              <Link component="button" type="button" onClick={() => void download(a.index, a.filename)}>
                {a.filename ?? `attachment ${a.index}`}
              </Link>{' '}
              {a.contentType}, {formatSize(a.size)}
              {a.cid ? ` (inline, cid:${a.cid})` : ''}
            </li>
          ))}
        </ul>
      ) : (
        <Typography variant="body2">None</Typography>
      )}
    </Box>
  );
}

function CaughtEmailsView() {
  usePageTitle('Caught e-mails');
  const [list, setList] = useState<CaughtEmailSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);

  const reload = useCallback(() => {
    setError(null);
    listCaughtEmails()
      .then(setList)
      .catch((err: unknown) => setError(errorText(err)));
  }, []);
  useEffect(reload, [reload]);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Caught e-mails" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 2, pb: 0 }}>
        <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
          Caught e-mails
        </Typography>
        <Button variant="outlined" startIcon={<RefreshIcon />} onClick={reload}>
          Reload
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ px: 2 }}>
        The demo's mail server keeps what is sent to it (e-cards, test e-mails); nothing leaves this machine.
      </Typography>
      <SendTestEmail onSent={reload} />
      {error ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {error}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', lg: 'row' }, gap: 2, p: 2, pt: 0 }}>
        <TableContainer sx={{ flex: '1 1 45%', minWidth: 0 }}>
          <Table size="small" aria-label="Caught e-mails">
            <TableHead>
              <TableRow>
                <TableCell>Received</TableCell>
                <TableCell>To</TableCell>
                <TableCell>Subject</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(list ?? []).map((m) => (
                <TableRow
                  key={m.id}
                  hover
                  selected={m.id === openId}
                  data-testid={`caught-email-${m.id}`}
                  tabIndex={0}
                  aria-label={`Open e-mail ${m.subject || m.id}`}
                  onClick={() => setOpenId(m.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && e.target === e.currentTarget) setOpenId(m.id);
                  }}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.receivedAt)}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{m.to}</TableCell>
                  <TableCell>
                    {m.subject || '(no subject)'}
                    {m.attachmentCount ? ` · ${m.attachmentCount} attachment${m.attachmentCount === 1 ? '' : 's'}` : ''}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {list && !list.length ? (
            <Typography variant="body2" sx={{ p: 2 }}>
              No e-mail caught yet.
            </Typography>
          ) : null}
        </TableContainer>
        <Card variant="outlined" sx={{ flex: '1 1 55%', minWidth: 0 }}>
          <CardContent>{openId !== null ? <CaughtEmailView id={openId} /> : <Typography variant="body2">Click an e-mail to see it as received.</Typography>}</CardContent>
        </Card>
      </Box>
    </Card>
  );
}

/** /caught-emails (admin, outside production): what the demo's mail catcher received. */
export function CaughtEmailsPage() {
  return (
    <RequireAccess resource="caught-emails" action="list">
      <CaughtEmailsView />
    </RequireAccess>
  );
}

export default CaughtEmailsPage;
