// The demo's mail catcher as the admin API sees it: started by main.ts outside production and
// attached here; on a server without one every call answers 404, saying so.
import { notFound } from '../../http/errors';
import type { CaughtEmail, CaughtEmailSummary } from '../../../../common/api/mailCatcher';
import type { CaughtMail, SmtpCatcher } from '../../../simulators/smtp';

export const NO_CATCHER = 'No mail catcher runs on this server (it runs only outside production, started by npm start)';

type Catcher = Pick<SmtpCatcher, 'messages' | 'message' | 'attachment'>;

const summaryOf = (m: CaughtMail): CaughtEmailSummary => ({
  id: m.id,
  receivedAt: m.receivedAt,
  from: m.from,
  to: m.to,
  subject: m.subject,
  size: Buffer.byteLength(m.raw),
  attachmentCount: m.attachments.length,
});

export function mailCatcherService() {
  let catcher: Catcher | undefined;
  const running = () => {
    if (!catcher) throw notFound(NO_CATCHER);
    return catcher;
  };
  const found = (id: number) => {
    const mail = running().message(id);
    if (!mail) throw notFound(`No caught e-mail ${id} (only the newest are kept)`);
    return mail;
  };
  return {
    attach(c: Catcher) {
      catcher = c;
    },
    isRunning: () => catcher !== undefined,
    /** Newest first. */
    list: (): CaughtEmailSummary[] => running().messages().map(summaryOf).reverse(),
    one(id: number): CaughtEmail {
      const m = found(id);
      return { ...summaryOf(m), envelope: m.envelope, messageId: m.messageId, text: m.text, html: m.html, attachments: m.attachments.map((a, index) => ({ index, ...a })) };
    },
    attachment(id: number, index: number) {
      const file = running().attachment(found(id).id, index);
      if (!file) throw notFound(`E-mail ${id} has no attachment ${index}`);
      return file;
    },
  };
}

export type MailCatcherService = ReturnType<typeof mailCatcherService>;
