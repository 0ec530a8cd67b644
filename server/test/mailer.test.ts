// The mailer (nodemailer) against the loopback SMTP catcher: what arrives, and how refusals and
// failures are sorted into try-again-later, refused for good, and wrong settings.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MailError, mailErrorOf, parseMailAddress, smtpUrlForDisplay, smtpUrlProblem, type OutgoingMail } from '../src/integrations/mailer';
import { startSmtpCatcher, type SmtpCatcher } from '../simulators/smtp';
import { REFUSED_PORT } from './infra';

// The smallest valid PNG (1×1): the inline image of the card.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const card = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  from: { name: 'Hope Charity', address: 'cards@hope.example.org' },
  to: { name: 'Ann Recipient', address: 'ann@example.net' },
  replyTo: { address: 'buyer@example.net' },
  subject: 'A card for you',
  text: 'Happy birthday, Ann!',
  html: '<p>Happy birthday, Ann!</p><img src="cid:front@presswork" alt="card">',
  attachments: [{ filename: 'card.png', content: PNG, contentType: 'image/png', cid: 'front@presswork' }],
  ...overrides,
});

/** Waits (polling) until the condition holds; fails the test after 5 s. */
async function until(cond: () => boolean) {
  for (let i = 0; !cond(); i++) {
    if (i > 500) throw new Error(`timed out waiting for ${cond.toString()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A port nothing listens on. */
describe('smtpUrlProblem', () => {
  it('accepts smtp:// and smtps:// with a host, credentials and the test-server option', () => {
    expect(smtpUrlProblem('smtp://mail.example.org:587')).toBeUndefined();
    expect(smtpUrlProblem('smtps://user%40x.org:p%3Ass@mail.example.org')).toBeUndefined();
    expect(smtpUrlProblem('smtp://127.0.0.1:2525?tls=insecure')).toBeUndefined();
  });

  it('says what is wrong otherwise', () => {
    expect(smtpUrlProblem('mail.example.org')).toMatch(/not a URL/);
    expect(smtpUrlProblem('http://mail.example.org')).toMatch(/smtp:\/\/ or smtps:\/\//);
    expect(smtpUrlProblem('smtp://:secret@mail.example.org')).toMatch(/password but no user/);
    expect(smtpUrlProblem('smtp://mail.example.org/inbox')).toMatch(/path/);
    expect(smtpUrlProblem('smtp://mail.example.org?tls=off')).toMatch(/unknown option "tls=off"/);
  });

  it('createMailer refuses a bad URL as a settings error', () => {
    expect(() => createMailer('http://x')).toThrow(MailError);
    try {
      createMailer('http://x');
    } catch (err) {
      expect((err as MailError).kind).toBe('config');
    }
  });

  it('the URL is shown without its password', () => {
    expect(smtpUrlForDisplay('smtps://user:secret@mail.example.org')).toBe('smtps://user@mail.example.org:465');
    expect(smtpUrlForDisplay('smtp://mail.example.org:2525')).toBe('smtp://mail.example.org:2525');
  });
});

describe('parseMailAddress (ECARD_FROM)', () => {
  it('reads a bare address or a named one', () => {
    expect(parseMailAddress('cards@hope.example.org')).toEqual({ address: 'cards@hope.example.org' });
    expect(parseMailAddress(' Hope Charity <cards@hope.example.org> ')).toEqual({ name: 'Hope Charity', address: 'cards@hope.example.org' });
    expect(parseMailAddress('"Hope, the charity" <cards@hope.example.org>')).toEqual({ name: 'Hope, the charity', address: 'cards@hope.example.org' });
  });
  it('anything else is no address', () => {
    for (const bad of [undefined, '', 'Hope Charity', 'cards@', '<cards@hope>', 'a b@hope.org']) expect(parseMailAddress(bad)).toBeUndefined();
  });
});

describe('mailErrorOf', () => {
  const e = (props: Record<string, unknown>) => Object.assign(new Error('failed'), props);
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, response: '550 No such user', rejected: ['ann@example.net'], command: 'RCPT TO' }, 'permanent'],
    [{ code: 'EENVELOPE', responseCode: 421, response: '421 Try again later', command: 'RCPT TO' }, 'temporary'],
    [{ code: 'EENVELOPE', responseCode: 452, response: '452 Insufficient storage' }, 'temporary'],
    [{ code: 'EMESSAGE', responseCode: 451, response: '451 Local error' }, 'temporary'],
    [{ code: 'EMESSAGE', responseCode: 554, response: '554 Spam' }, 'permanent'],
    [{ code: 'EAUTH', responseCode: 535, response: '535 Authentication credentials invalid', command: 'AUTH PLAIN' }, 'config'],
    [{ code: 'EAUTH', responseCode: 454, response: '454 Temporary authentication failure' }, 'temporary'],
    [{ code: 'ENOAUTH' }, 'config'],
    [{ code: 'ECONNECTION' }, 'temporary'],
    [{ code: 'ETIMEDOUT' }, 'temporary'],
    [{ code: 'ESOCKET' }, 'temporary'],
    [{ code: 'EDNS' }, 'temporary'],
    [{ code: 'ETLS' }, 'config'],
  ])('%o is %s', (props, kind) => {
    const err = mailErrorOf(e(props));
    expect(err.kind).toBe(kind);
    expect(err.responseCode).toBe((props as { responseCode?: number }).responseCode ?? null);
    if ((props as { response?: string }).response) expect(err.message).toContain((props as { response: string }).response);
  });
});

describe('the mailer against the SMTP catcher', () => {
  let catcher: SmtpCatcher;
  beforeAll(async () => {
    catcher = await startSmtpCatcher();
  });
  afterAll(async () => {
    await catcher.close();
  });

  it('verify() connects and greets', async () => {
    const mailer = createMailer(catcher.url, { timeoutMs: 5000 });
    const { latencyMs } = await mailer.verify();
    expect(latencyMs).toBeGreaterThanOrEqual(0);
    mailer.close();
  });

  it('sends text and html with the inline image, under the fixed Message-ID', async () => {
    catcher.clear();
    const mailer = createMailer(catcher.url);
    const sent = await mailer.send(card({ messageId: '<ecard.12.1001.555@presswork>' }));
    mailer.close();
    expect(sent).toMatchObject({ messageId: '<ecard.12.1001.555@presswork>', accepted: ['ann@example.net'], rejected: [] });
    expect(sent.response).toMatch(/^250/);
    const [caught] = catcher.messages();
    expect(caught).toMatchObject({
      envelope: { from: 'cards@hope.example.org', to: ['ann@example.net'] },
      messageId: '<ecard.12.1001.555@presswork>',
      from: '"Hope Charity" <cards@hope.example.org>',
      to: '"Ann Recipient" <ann@example.net>',
      subject: 'A card for you',
      html: '<p>Happy birthday, Ann!</p><img src="cid:front@presswork" alt="card">',
      attachments: [{ filename: 'card.png', contentType: 'image/png', cid: 'front@presswork', size: PNG.length }],
    });
    expect(caught.text.trim()).toBe('Happy birthday, Ann!');
    expect(caught.raw).toMatch(/^Reply-To: buyer@example\.net/m);
    expect(caught.raw).toMatch(/multipart\/alternative/);
    expect(caught.raw).toMatch(/multipart\/related/);
    expect(catcher.attachment(caught.id, 0)?.content.equals(PNG)).toBe(true);
    expect(catcher.attachment(caught.id, 1)).toBeUndefined();
  });

  it('a 550 at RCPT TO is a permanent refusal, a 421 a temporary one; nothing is kept', async () => {
    catcher.clear();
    const mailer = createMailer(catcher.url);
    catcher.refuseNext(1, 550, 'No such user');
    const refused = await mailer.send(card()).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(MailError);
    expect(refused).toMatchObject({ kind: 'permanent', responseCode: 550 });
    expect((refused as MailError).message).toMatch(/No such user/);
    catcher.refuseNext(1, 421);
    expect(await mailer.send(card()).catch((err: unknown) => err)).toMatchObject({ kind: 'temporary', responseCode: 421 });
    expect(catcher.messages()).toEqual([]);
    // The refusals were for the next messages only: this one goes through.
    await mailer.send(card());
    expect(catcher.messages()).toHaveLength(1);
    mailer.close();
  });

  it('a dropped connection after the data is temporary, and the message did arrive', async () => {
    catcher.clear();
    catcher.dropNext(1);
    const mailer = createMailer(catcher.url, { timeoutMs: 5000 });
    expect(await mailer.send(card()).catch((err: unknown) => err)).toMatchObject({ kind: 'temporary' });
    expect(catcher.messages()).toHaveLength(1);
    mailer.close();
  });

  it('a held 250: the message is caught at once, the send resolves only after release', async () => {
    catcher.clear();
    catcher.holdReplies(true);
    const mailer = createMailer(catcher.url, { timeoutMs: 5000 });
    let settled = false;
    const sending = mailer.send(card({ messageId: '<held.1@presswork>' })).finally(() => (settled = true));
    await until(() => catcher.heldCount() === 1);
    expect(catcher.messages().map((m) => m.messageId)).toEqual(['<held.1@presswork>']);
    expect(settled).toBe(false);
    catcher.holdReplies(false);
    catcher.releaseReplies();
    expect((await sending).messageId).toBe('<held.1@presswork>');
    expect(catcher.heldCount()).toBe(0);
    mailer.close();
  });

  it('a held 250 whose sender hangs up is dropped; the message stays caught', async () => {
    catcher.clear();
    catcher.holdReplies(true);
    const socket = net.connect(catcher.port, '127.0.0.1');
    socket.on('error', () => {});
    let heard = '';
    socket.on('data', (d: Buffer) => (heard += d.toString()));
    const say = async (line: string, reply: RegExp) => {
      socket.write(`${line}\r\n`);
      await until(() => reply.test(heard));
      heard = '';
    };
    await until(() => /^220 /m.test(heard));
    heard = '';
    await say('EHLO faults.example', /^250 /m);
    await say('MAIL FROM:<cards@hope.example.org>', /^250 /m);
    await say('RCPT TO:<ann@example.net>', /^250 /m);
    await say('DATA', /^354 /m);
    socket.write('Subject: hung up\r\nMessage-ID: <held.2@presswork>\r\n\r\nHello\r\n.\r\n');
    await until(() => catcher.heldCount() === 1);
    expect(heard).toBe('');
    socket.destroy();
    await until(() => catcher.heldCount() === 0);
    catcher.holdReplies(false);
    expect(catcher.messages().map((m) => m.messageId)).toEqual(['<held.2@presswork>']);
  });

  it('no server at the port: temporary, with the reason', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${REFUSED_PORT}`, { timeoutMs: 5000 });
    const err = (await mailer.verify().catch((e: unknown) => e)) as MailError;
    expect(err).toBeInstanceOf(MailError);
    expect(err.kind).toBe('temporary');
    expect(err.message).toMatch(/Could not reach the mail server.*ECONNREFUSED/);
  });

  it('keeps only the newest messages', async () => {
    const small = await startSmtpCatcher({ keep: 2 });
    const mailer = createMailer(small.url);
    for (const subject of ['one', 'two', 'three']) await mailer.send(card({ subject }));
    mailer.close();
    expect(small.messages().map((m) => m.subject)).toEqual(['two', 'three']);
    expect(small.message(1)).toBeUndefined();
    await small.close();
  });
});

describe('a catcher that wants a login', () => {
  let catcher: SmtpCatcher;
  beforeAll(async () => {
    catcher = await startSmtpCatcher({ auth: { user: 'cards@hope.example.org', pass: 'p@ss:word' } });
  });
  afterAll(async () => {
    await catcher.close();
  });

  it('the credentials in the URL (URL-encoded) log in', async () => {
    expect(catcher.url).toBe(`smtp://cards%40hope.example.org:p%40ss%3Aword@127.0.0.1:${catcher.port}`);
    const mailer = createMailer(catcher.url);
    await mailer.verify();
    await mailer.send(card());
    mailer.close();
    expect(catcher.messages()).toHaveLength(1);
  });

  it('a wrong password is a settings error (535)', async () => {
    const mailer = createMailer(`smtp://cards%40hope.example.org:wrong@127.0.0.1:${catcher.port}`);
    const err = (await mailer.verify().catch((e: unknown) => e)) as MailError;
    expect(err).toMatchObject({ kind: 'config', responseCode: 535 });
    expect(err.message).toMatch(/refused the user name or password: 535/);
  });

  it('no credentials at all is a settings error too', async () => {
    const mailer = createMailer(`smtp://127.0.0.1:${catcher.port}`);
    const err = (await mailer.send(card()).catch((e: unknown) => e)) as MailError;
    expect(err.kind).toBe('config');
  });
});
