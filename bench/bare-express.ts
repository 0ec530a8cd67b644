// The startup/memory baseline of bench/startup.bench.ts: a bare Express 5 app with a JSON body
// parser, answering GET /api, started the same way as Presswork's server (node --import tsx). Env: PORT.
import express from 'express';

const app = express();
app.use(express.json({ limit: '1mb' }));
app.get('/api', (_req, res) => {
  res.json({ success: true, data: { name: 'bare' }, error: null });
});
app.post('/api/echo', (req, res) => {
  res.json({ success: true, data: req.body, error: null });
});
const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
