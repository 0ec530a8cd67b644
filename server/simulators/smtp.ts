// A loopback SMTP server for the tests and the demo that keeps what it is sent (RFC 5321 on the
// `smtp-server` package, messages parsed with `mailparser`). No TLS: STARTTLS is not offered, and a
// login (when one is required) is accepted over the plain connection. Faults, as a real server
// gives them: the next messages refused at RCPT TO with a chosen reply (421 try later, 550 no such
// user), or accepted and the connection dropped before the 250 (the sender can't know it went), or
// accepted and the 250 held back until released (the sender waits: a test kills it mid-send).
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';

export interface CaughtMail {
  id: number;
  receivedAt: string;
  envelope: { from: string; to: string[] };
  messageId: string | null;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: Array<{ filename: string | null; contentType: string; cid: string | null; size: number }>;
  raw: string;
}

export interface SmtpCatcher {
  port: number;
  /** smtp://127.0.0.1:<port> (with user:password@ when a login is required) */
  url: string;
  /** Oldest first. */
  messages(): CaughtMail[];
  message(id: number): CaughtMail | undefined;
  attachment(id: number, index: number): { contentType: string; content: Buffer } | undefined;
  /** The next n messages are refused with this SMTP reply at RCPT TO (e.g. 421 "Try again later", 550 "No such user"). */
  refuseNext(n: number, code: number, message?: string): void;
  /** The next n messages are kept, then the connection drops before the 250: an ambiguous send. */
  dropNext(n: number): void;
  /**
   * While on, a message that arrives is kept (the server has it) but its 250 is held back until
   * releaseReplies(); a held reply whose sender hangs up (a killed app) is dropped.
   */
  holdReplies(on: boolean): void;
  /** Sends every held 250 now. */
  releaseReplies(): void;
  /** Senders waiting on a held 250. */
  heldCount(): number;
  clear(): void;
  close(): Promise<void>;
}

export interface SmtpCatcherOptions {
  port?: number;
  host?: string;
  /** How many of the newest messages are kept (default 200). */
  keep?: number;
  /** When set, a login with this user and password is required. */
  auth?: { user: string; pass: string };
}

const DEFAULT_REPLIES: Record<number, string> = { 421: 'Try again later', 450: 'Mailbox busy, try again later', 451: 'Local error, try again later', 452: 'Insufficient storage', 550: 'No such user', 552: 'Mailbox full', 553: 'Mailbox name not allowed', 554: 'Transaction failed' };
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

const addressText = (a: AddressObject | AddressObject[] | undefined) => (a === undefined ? '' : (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', '));

function smtpError(code: number, message: string) {
  return Object.assign(new Error(message), { responseCode: code });
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startSmtpCatcher(opts: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const host = opts.host ?? '127.0.0.1';
  const keep = Math.max(1, opts.keep ?? 200);
  const stored: Array<CaughtMail & { contents: Buffer[] }> = [];
  let nextId = 1;
  let refusals: { left: number; code: number; message: string } = { left: 0, code: 0, message: '' };
  let drops = 0;
  let holding = false;
  // The 250s held back, each with its connection's session id: a closed connection drops its own.
  const held: Array<{ sessionId: string; reply: () => void }> = [];
  // One refusal counts per message, however many recipients it names.
  const refusedTransactions = new Set<string>();
  const transactionOf = (session: SMTPServerSession) => `${session.id}:${session.transaction}`;

  const server: SMTPServer = new SMTPServer({
    name: 'presswork-catcher',
    banner: 'Presswork mail catcher (test and demo only)',
    disabledCommands: ['STARTTLS'],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) return callback(null, { user: auth.username });
      callback(smtpError(535, 'Authentication credentials invalid'));
    },
    onRcptTo(_address, session, callback) {
      const key = transactionOf(session);
      if (refusedTransactions.has(key)) return callback(smtpError(refusals.code, refusals.message));
      if (refusals.left > 0) {
        refusals.left -= 1;
        refusedTransactions.add(key);
        return callback(smtpError(refusals.code, refusals.message));
      }
      callback();
    },
    onData(stream, session, callback) {
      void (async () => {
        const raw = await readAll(stream);
        if (stream.sizeExceeded) return callback(smtpError(552, `Message exceeds the ${MAX_MESSAGE_BYTES} bytes allowed`));
        // cid: links kept as sent: the page showing the message points them at the attachments.
        const parsed = await simpleParser(raw, { keepCidLinks: true });
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const mail = {
          id: nextId++,
          receivedAt: new Date().toISOString(),
          envelope: { from: envelopeFrom, to: session.envelope.rcptTo.map((r) => r.address) },
          messageId: parsed.messageId ?? null,
          from: addressText(parsed.from),
          to: addressText(parsed.to),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : null,
          attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? null, contentType: a.contentType, cid: a.cid ?? null, size: a.size })),
          raw: raw.toString('utf8'),
          contents: parsed.attachments.map((a) => a.content),
        };
        stored.push(mail);
        if (stored.length > keep) stored.splice(0, stored.length - keep);
        if (drops > 0) {
          drops -= 1;
          const connection = [...server.connections].find((c) => c.id === session.id);
          connection?._socket.destroy();
          return;
        }
        const reply = () => callback(null, `Message queued as ${mail.id}`);
        if (holding) return void held.push({ sessionId: session.id, reply });
        reply();
      })().catch((err: unknown) => callback(smtpError(451, `Could not read the message: ${err instanceof Error ? err.message : String(err)}`)));
    },
    onClose(session) {
      for (let i = held.length - 1; i >= 0; i--) if (held[i].sessionId === session.id) held.splice(i, 1);
    },
  });
  const releaseReplies = () => held.splice(0).forEach((h) => h.reply());
  // A client that goes away mid-conversation is not our problem: keep serving the others.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const credentials = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : '';
  const publicOf = ({ contents: _contents, ...mail }: CaughtMail & { contents: Buffer[] }): CaughtMail => mail;

  return {
    port,
    url: `smtp://${credentials}${host.includes(':') ? `[${host}]` : host}:${port}`,
    messages: () => stored.map(publicOf),
    message(id) {
      const mail = stored.find((m) => m.id === id);
      return mail && publicOf(mail);
    },
    attachment(id, index) {
      const mail = stored.find((m) => m.id === id);
      const meta = mail?.attachments[index];
      return mail && meta ? { contentType: meta.contentType, content: mail.contents[index] } : undefined;
    },
    refuseNext(n, code, message) {
      if (!(code >= 400 && code <= 599)) throw new Error('refuseNext: the reply code must be a 4xx or 5xx SMTP code');
      refusals = { left: n, code, message: message ?? DEFAULT_REPLIES[code] ?? 'Refused' };
    },
    dropNext(n) {
      drops = n;
    },
    holdReplies(on) {
      holding = on;
    },
    releaseReplies,
    heldCount: () => held.length,
    clear() {
      stored.length = 0;
    },
    close: () => {
      holding = false;
      releaseReplies();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
