// POST /api/test/send-email: the site's mail server (its SMTP_URL, else the server-wide one) is
// reached with the same mailer the e-cards use, and with `to` a real test message is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEnvValue } from '../src/modules/sync/siteSettings';
import { startSmtpCatcher, type SmtpCatcher } from '../simulators/smtp';
import { createMailer } from '../src/integrations/mailer';
import { createLogger } from '../src/lib/logger';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { demoSmtpCatcher } from '../simulators/smtpDemo';
import { bearer, binary, createWorld, type TestWorld } from './harness';
import { REFUSED_PORT } from './infra';

describe('POST /api/test/send-email', () => {
  let w: TestWorld;
  let catcher: SmtpCatcher;
  let locked: SmtpCatcher;
  const setEnv = (siteId: number, key: string, value: string) => writeEnvValue(w.db, w.clock, siteId, key, value);
  const sendEmail = (body: Record<string, unknown>, token = w.tokens.adminA) => w.request().post('/api/test/send-email').set(bearer(token)).send(body);

  beforeAll(async () => {
    w = await createWorld();
    catcher = await startSmtpCatcher();
    locked = await startSmtpCatcher({ auth: { user: 'mailer', pass: 's3cret!' } });
  });
  afterAll(async () => {
    await catcher.close();
    await locked.close();
  });

  it('without any mail server: not ok, saying what to set', async () => {
    const res = await sendEmail({});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ service: 'email', site: 'site-a', ok: false });
    expect(res.body.data.checks[0].error).toMatch(/no mail transport configured/);
  });

  it("the site's mail server: the connection is checked and nothing is sent", async () => {
    await setEnv(w.sites.a, 'SMTP_URL', catcher.url);
    catcher.clear();
    const res = await sendEmail({ site: 'site-a' });
    expect(res.body.data).toMatchObject({ service: 'email', site: 'site-a', ok: true, checks: [{ step: 'connection', url: catcher.url, ok: true, error: null }] });
    expect(res.body.data.checks).toHaveLength(1);
    expect(catcher.messages()).toEqual([]);
  });

  it('with `to`: a real test message is caught, from the site\'s ECARD_FROM', async () => {
    await setEnv(w.sites.a, 'ECARD_FROM', 'Site A Cards <cards@site-a.example.org>');
    catcher.clear();
    const res = await sendEmail({ site: String(w.sites.a), to: 'someone@example.net' });
    expect(res.body.data.ok).toBe(true);
    expect(res.body.data.checks.map((c: { step: string }) => c.step)).toEqual(['connection', 'test message']);
    expect(res.body.data.checks[1]).toMatchObject({ status: 250, ok: true });
    const [mail] = catcher.messages();
    expect(mail).toMatchObject({ subject: 'Presswork test message', envelope: { from: 'cards@site-a.example.org', to: ['someone@example.net'] }, from: '"Site A Cards" <cards@site-a.example.org>' });
    expect(mail.text).toContain('Site A');
  });

  it('a site without its own mail server uses the server-wide SMTP_URL, from a default sender', async () => {
    const withGlobal = await createWorld({ SMTP_URL: catcher.url });
    catcher.clear();
    const res = await withGlobal.request().post('/api/test/send-email').set(bearer(withGlobal.tokens.adminB)).send({ to: 'b@example.net' });
    expect(res.body.data).toMatchObject({ site: 'site-b', ok: true });
    expect(catcher.messages()).toHaveLength(1);
    expect(catcher.messages()[0].envelope.from).toBe('presswork@localhost');
  });

  it('a refused recipient shows as a failed test message with the server\'s reply', async () => {
    catcher.refuseNext(1, 550, 'No such user here');
    const res = await sendEmail({ site: 'site-a', to: 'nobody@example.net' });
    expect(res.body.data.ok).toBe(false);
    expect(res.body.data.checks[0].ok).toBe(true);
    expect(res.body.data.checks[1]).toMatchObject({ step: 'test message', ok: false, status: 550 });
    expect(res.body.data.checks[1].error).toMatch(/No such user here/);
  });

  it('nothing listening at the port: not ok, with the reason', async () => {
    const port = REFUSED_PORT;
    await setEnv(w.sites.b, 'SMTP_URL', `smtp://127.0.0.1:${port}`);
    const res = await sendEmail({ site: 'site-b', to: 'x@example.net' });
    expect(res.body.data).toMatchObject({ site: 'site-b', ok: false, checks: [{ step: 'connection', url: `smtp://127.0.0.1:${port}`, ok: false, status: null }] });
    expect(res.body.data.checks).toHaveLength(1);
    expect(res.body.data.checks[0].error).toMatch(/Could not reach the mail server.*ECONNREFUSED/);
  });

  it('a refused login (535): not ok, and the password is never shown', async () => {
    await setEnv(w.sites.b, 'SMTP_URL', `smtp://mailer:wrong-password@127.0.0.1:${locked.port}`);
    const res = await sendEmail({ site: 'site-b' });
    expect(res.body.data.ok).toBe(false);
    expect(res.body.data.checks[0]).toMatchObject({ step: 'connection', url: `smtp://mailer@127.0.0.1:${locked.port}`, status: 535, ok: false });
    expect(res.body.data.checks[0].error).toMatch(/refused the user name or password/);
    expect(JSON.stringify(res.body)).not.toContain('wrong-password');
    // The right password logs in.
    await setEnv(w.sites.b, 'SMTP_URL', `smtp://mailer:s3cret%21@127.0.0.1:${locked.port}`);
    const good = await sendEmail({ site: 'site-b' });
    expect(good.body.data.ok).toBe(true);
    expect(JSON.stringify(good.body)).not.toContain('s3cret');
  });

  it('a malformed SMTP_URL is a settings check, not a crash', async () => {
    await setEnv(w.sites.b, 'SMTP_URL', 'mail.example.org:25');
    const res = await sendEmail({ site: 'site-b' });
    expect(res.body.data).toMatchObject({ ok: false, checks: [{ step: 'settings', ok: false }] });
    expect(res.body.data.checks[0].error).toMatch(/smtp:\/\/ or smtps:\/\//);
  });

  it('bad input is refused clearly; users may not call it; an unknown site is not found', async () => {
    const bad = await sendEmail({ site: 'site-a', to: 'not an address' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/to: must be an e-mail address/);
    expect((await sendEmail({}, w.tokens.userA)).status).toBe(403);
    const unknown = await sendEmail({ site: 'no-such-site' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message ?? JSON.stringify(unknown.body)).toMatch(/Site not found/);
  });
});

describe('GET /api/test/caught-emails (the demo\'s mail catcher)', () => {
  let w: TestWorld;
  let catcher: SmtpCatcher;
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  const get = (path: string, token = w.tokens.adminA) => w.request().get(`/api/test/caught-emails${path}`).set(bearer(token));

  beforeAll(async () => {
    w = await createWorld();
    catcher = await startSmtpCatcher();
  });
  afterAll(async () => {
    await catcher.close();
  });

  it('no catcher on this server: 404 saying so', async () => {
    const res = await get('');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No mail catcher runs on this server/);
  });

  it('lists newest first, shows one with its parts, and serves its attachments', async () => {
    w.services.mailCatcher.attach(catcher);
    await writeEnvValue(w.db, w.clock, w.sites.a, 'SMTP_URL', catcher.url);
    expect((await w.request().post('/api/test/send-email').set(bearer(w.tokens.adminA)).send({ to: 'first@example.net' })).body.data.ok).toBe(true);
    const mailer = createMailer(catcher.url);
    await mailer.send({
      from: { address: 'cards@site-a.example.org' },
      to: { name: 'Ann', address: 'ann@example.net' },
      subject: 'Your card',
      text: 'Hello Ann',
      html: '<p>Hello Ann</p><img src="cid:front@presswork">',
      attachments: [{ filename: 'front.png', content: PNG, contentType: 'image/png', cid: 'front@presswork' }],
    });
    mailer.close();

    const list = await get('');
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Your card', 'Presswork test message']);
    expect(list.body.data[0]).toMatchObject({ to: '"Ann" <ann@example.net>', attachmentCount: 1 });
    expect(list.body.data[0].size).toBeGreaterThan(PNG.length);

    const one = await get(`/${list.body.data[0].id}`);
    expect(one.body.data).toMatchObject({
      subject: 'Your card',
      envelope: { from: 'cards@site-a.example.org', to: ['ann@example.net'] },
      html: '<p>Hello Ann</p><img src="cid:front@presswork">',
      attachments: [{ index: 0, filename: 'front.png', contentType: 'image/png', cid: 'front@presswork', size: PNG.length }],
    });
    expect(one.body.data.text.trim()).toBe('Hello Ann');

    const file = await get(`/${list.body.data[0].id}/attachments/0`).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect((file.body as Buffer).equals(PNG)).toBe(true);
  });

  it('unknown ids are 404 with a clear message; bad ids 400; users 403', async () => {
    const missing = await get('/999');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/No caught e-mail 999/);
    const [first] = catcher.messages();
    const noFile = await get(`/${first.id}/attachments/5`);
    expect(noFile.status).toBe(404);
    expect(noFile.body.error).toMatch(/has no attachment 5/);
    expect((await get('/abc')).status).toBe(400);
    expect((await get('', w.tokens.userA)).status).toBe(403);
  });
});

describe('the demo mail catcher at start (demoSmtpCatcher)', () => {
  let w: TestWorld;
  const started: SmtpCatcher[] = [];
  const siteA = async () => (await sitesRepo(w.db).byId(w.sites.a))!;
  const env = async (key: string) => envValue((await siteA()).settings.env, key);
  beforeAll(async () => {
    w = await createWorld();
  });
  afterAll(async () => {
    for (const c of started) await c.close();
  });

  it("completes the site's SMTP_URL and ECARD_FROM, and replaces only an earlier catcher's URL", async () => {
    const first = await demoSmtpCatcher({ db: w.db, clock: w.clock, log: createLogger('silent') }, await siteA(), 0);
    started.push(first);
    expect(await env('SMTP_URL')).toBe(first.url);
    expect(first.url).toMatch(/^smtp:\/\/demo-catcher:demo@127\.0\.0\.1:\d+$/);
    expect(await env('ECARD_FROM')).toBe('cards@site-a.example.org');
    // The demo's own test message goes through the login.
    expect((await w.request().post('/api/test/send-email').set(bearer(w.tokens.adminA)).send({ to: 'x@example.net' })).body.data.ok).toBe(true);
    expect(first.messages()).toHaveLength(1);

    // A restart on another port: the earlier catcher's URL is ours to update.
    const second = await demoSmtpCatcher({ db: w.db, clock: w.clock, log: createLogger('silent') }, await siteA(), 0);
    started.push(second);
    expect(second.port).not.toBe(first.port);
    expect(await env('SMTP_URL')).toBe(second.url);

    // A mail server someone set, and a sender they chose, are kept.
    await writeEnvValue(w.db, w.clock, w.sites.a, 'SMTP_URL', 'smtp://127.0.0.1:1025');
    await writeEnvValue(w.db, w.clock, w.sites.a, 'ECARD_FROM', 'Hope <hello@hope.example.org>');
    started.push(await demoSmtpCatcher({ db: w.db, clock: w.clock, log: createLogger('silent') }, await siteA(), 0));
    expect(await env('SMTP_URL')).toBe('smtp://127.0.0.1:1025');
    expect(await env('ECARD_FROM')).toBe('Hope <hello@hope.example.org>');
  });

  it('a taken port falls back to any free one', async () => {
    const taken = started[0].port;
    const c = await demoSmtpCatcher({ db: w.db, clock: w.clock, log: createLogger('silent') }, await siteA(), taken);
    started.push(c);
    expect(c.port).not.toBe(taken);
  });
});
