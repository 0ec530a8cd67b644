// Serves the bare react-admin baseline (a built dist) the way Presswork serves its admin UI
// (express.static with the same cache headers, index.html for client routes), and answers its
// ra-data-simple-rest `GET /api/jobs` with Presswork's real Jobs queue: each call asks the running
// Presswork (UPSTREAM, as TOKEN's user) for page 1, so both screens show the same rows from the same
// database query. Env: PORT, DIST, UPSTREAM, TOKEN.
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

const dist = path.resolve(process.env.DIST ?? 'dist/bare-admin');
const upstream = process.env.UPSTREAM ?? 'http://127.0.0.1:8080';
const token = process.env.TOKEN ?? '';
const index = path.join(dist, 'index.html');

const app = express();
app.get('/api/jobs', async (_req, res) => {
  const r = await fetch(`${upstream}/api/print-jobs?page=1&readyForPrint=1&isPrinted=0`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await r.json()) as { data?: { list: Array<Record<string, unknown>>; total: number } };
  if (!r.ok || !body.data) {
    res.status(502).json({ message: `upstream answered ${r.status}` });
    return;
  }
  const { list, total } = body.data;
  // Nested objects would make ListGuesser guess reference/array fields: keep the plain columns.
  const rows = list.map((j) => Object.fromEntries(Object.entries(j).filter(([, v]) => v === null || typeof v !== 'object')));
  res.set('Content-Range', `jobs 0-${Math.max(0, rows.length - 1)}/${total}`).set('Access-Control-Expose-Headers', 'Content-Range').json(rows);
});
app.use(express.static(dist, { index: false, maxAge: '1h', setHeaders: (res, file) => file.includes(`${path.sep}assets${path.sep}`) && res.set('Cache-Control', 'public, max-age=31536000, immutable') }));
app.get(['/', '/*path'], (req, res, next) => {
  if (!req.accepts('html') || !fs.existsSync(index)) return next();
  res.set('Cache-Control', 'no-cache').sendFile(index);
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
