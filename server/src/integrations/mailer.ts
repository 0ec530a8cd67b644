// Outgoing e-mail over SMTP (nodemailer): a connection check and the sending of one message. The
// mail server is named by a URL: `smtp://user:password@host:port` (STARTTLS when the server offers
// it) or `smtps://…` (TLS from the first byte). Errors are sorted into what the caller does next:
// try again later, give up on this message, or fix the settings.
import nodemailer from 'nodemailer';
import { parseMailAddress, smtpUrlProblem, TLS_INSECURE, type MailAddress } from '../../../common/mailSettings';

// The mail settings' rules live in common (the site form checks them as typed).
export { parseMailAddress, smtpUrlProblem, type MailAddress };

export interface OutgoingMail {
  from: MailAddress;
  to: MailAddress;
  replyTo?: MailAddress;
  subject: string;
  text: string;
  html: string;
  /** A fixed Message-ID (e.g. `<ecard.12.1001.555@presswork>`): a resend after a crash carries the same one. */
  messageId?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string; cid?: string }>;
}

export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
  response: string;
}

export type MailErrorKind = 'temporary' | 'permanent' | 'config';

/** kind: temporary = try again later (4xx reply, no connection, timeout); permanent = refused (5xx); config = our settings are wrong (bad URL, auth 535 refused). */
export class MailError extends Error {
  constructor(
    readonly kind: MailErrorKind,
    message: string,
    readonly responseCode: number | null = null,
    readonly response: string | null = null,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

export interface Mailer {
  /** A real connection: connect, greeting, EHLO, STARTTLS when offered, and the login when the URL has one. */
  verify(): Promise<{ latencyMs: number }>;
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

export const DEFAULT_MAIL_TIMEOUT_MS = 15_000;

/** The URL as it may be shown: `smtp://user@host:port`, never the password. */
export function smtpUrlForDisplay(url: string): string {
  try {
    const u = new URL(url.trim());
    const secure = u.protocol === 'smtps:';
    const user = u.username ? `${u.username}@` : '';
    return `${u.protocol}//${user}${u.hostname}:${u.port || (secure ? 465 : 587)}`;
  } catch {
    return '(not a URL)';
  }
}

/** What nodemailer attaches to its errors (see its errors.d.ts). */
interface NodemailerFailure {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  rejected?: string[];
}

// Errors without an SMTP reply: the connection itself failed, so the same message may go through later.
const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPROXY', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// Errors that the same settings will keep producing.
const SETTINGS_CODES = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ECONFIG', 'ETLS', 'EREQUIRETLS']);

/** nodemailer's error (or anything thrown while mailing) as a MailError that says what to do next. */
export function mailErrorOf(err: unknown): MailError {
  if (err instanceof MailError) return err;
  const e = (err && typeof err === 'object' ? err : { message: String(err) }) as NodemailerFailure;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const responseCode = typeof e.responseCode === 'number' && e.responseCode >= 200 && e.responseCode <= 599 ? e.responseCode : null;
  const response = typeof e.response === 'string' && e.response ? e.response.trim() : null;
  const reply = response ?? (responseCode ? String(responseCode) : null);
  const detail = e.message ?? 'unknown error';
  // 454 is "temporary authentication failure": a later attempt may log in.
  if ((code === 'EAUTH' || code === 'ENOAUTH') && responseCode !== 454) {
    return new MailError('config', `The mail server refused the user name or password${reply ? `: ${reply}` : ` (${detail})`}`, responseCode, response);
  }
  if (code && SETTINGS_CODES.has(code) && responseCode === null) {
    return new MailError('config', code === 'ETLS' ? `The secure (TLS) connection to the mail server failed: ${detail}` : `The mail settings are wrong: ${detail}`, null, null);
  }
  if (responseCode !== null) {
    const at = e.command ? ` (at ${e.command.split(' ')[0]})` : '';
    // 530: the server wants a login we did not give; 503 is a bad command sequence, not a refusal of the message.
    if (responseCode === 530 || responseCode === 535 || responseCode === 534) return new MailError('config', `The mail server wants a valid login: ${reply}`, responseCode, response);
    if (responseCode >= 500 && responseCode !== 503) {
      const who = code === 'EENVELOPE' && e.rejected?.length ? ` for ${e.rejected.join(', ')}` : '';
      return new MailError('permanent', `The mail server refused the message${who}${at}: ${reply}`, responseCode, response);
    }
    return new MailError('temporary', `The mail server asked to try again later${at}: ${reply}`, responseCode, response);
  }
  if (code && CONNECTION_CODES.has(code)) return new MailError('temporary', `Could not reach the mail server: ${detail}`, null, null);
  // An envelope refused without a reply is our own input (no usable address): sending it again won't help.
  if (code === 'EENVELOPE') return new MailError('permanent', `The message could not be addressed: ${detail}`, null, null);
  return new MailError('temporary', `Sending the e-mail failed: ${detail}`, null, null);
}

const addressOf = (a: MailAddress) => (a.name ? { name: a.name, address: a.address } : a.address);
const addressText = (a: unknown) => (typeof a === 'string' ? a : a && typeof a === 'object' && 'address' in a ? String((a as { address: unknown }).address) : String(a));

export function createMailer(smtpUrl: string, opts: { timeoutMs?: number } = {}): Mailer {
  const problem = smtpUrlProblem(smtpUrl);
  if (problem) throw new MailError('config', problem);
  const u = new URL(smtpUrl.trim());
  const secure = u.protocol === 'smtps:';
  const timeout = opts.timeoutMs ?? DEFAULT_MAIL_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: Number(u.port) || (secure ? 465 : 587),
    secure,
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    ...(u.searchParams.get('tls') === TLS_INSECURE ? { tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    // Attachments are Buffers we made: never let a message read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });

  return {
    async verify() {
      const started = Date.now();
      try {
        await transport.verify();
      } catch (err) {
        throw mailErrorOf(err);
      }
      return { latencyMs: Date.now() - started };
    },

    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: addressOf(mail.from),
          to: addressOf(mail.to),
          ...(mail.replyTo ? { replyTo: addressOf(mail.replyTo) } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
          attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType, ...(a.cid ? { cid: a.cid } : {}) })),
        });
        return {
          messageId: info.messageId,
          accepted: (info.accepted ?? []).map(addressText),
          rejected: (info.rejected ?? []).map(addressText),
          response: info.response ?? '',
        };
      } catch (err) {
        throw mailErrorOf(err);
      }
    },

    close() {
      transport.close();
    },
  };
}
