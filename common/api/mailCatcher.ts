// The demo's caught e-mails (GET /api/test/caught-emails…), as the server sends them and the admin reads them.
import type { RecordId } from './envelope';

/** One line of the list (newest first). */
export interface CaughtEmailSummary {
  id: RecordId;
  receivedAt: string;
  from: string;
  to: string;
  subject: string;
  /** Bytes of the message as received. */
  size: number;
  attachmentCount: number;
}

export interface CaughtEmailAttachment {
  /** Position in the message: GET /api/test/caught-emails/:id/attachments/:index. */
  index: number;
  filename: string | null;
  contentType: string;
  /** The Content-ID an HTML `cid:` reference names (without angle brackets). */
  cid: string | null;
  size: number;
}

/** One message as received: its headers, both parts and its attachments. */
export interface CaughtEmail extends CaughtEmailSummary {
  envelope: { from: string; to: string[] };
  messageId: string | null;
  text: string;
  html: string | null;
  attachments: CaughtEmailAttachment[];
}
