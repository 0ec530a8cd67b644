// TEMP STUB (not committed)
export interface MailAddress { name?: string; address: string }
export interface OutgoingMail { from: MailAddress; to: MailAddress; replyTo?: MailAddress; subject: string; text: string; html: string; messageId?: string; attachments?: Array<{ filename: string; content: Buffer; contentType: string; cid?: string }> }
export interface SentMail { messageId: string; accepted: string[]; rejected: string[]; response: string }
export class MailError extends Error { kind: 'temporary' | 'permanent' | 'config' = 'temporary'; responseCode: number | null = null; response: string | null = null }
export declare function mailErrorOf(err: unknown): MailError;
export declare function smtpUrlProblem(url: string): string | undefined;
export interface Mailer { verify(): Promise<{ latencyMs: number }>; send(mail: OutgoingMail): Promise<SentMail>; close(): void }
export declare function createMailer(smtpUrl: string, opts?: { timeoutMs?: number }): Mailer;
