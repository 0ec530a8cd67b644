// Send the e-card: the e-card line's design drawn with the line's personalisation (or a picture
// e-card's image, scaled to the e-mail), e-mailed to the recipient (HTML with the card inline and a plain-text part, the site's name as the sender, the
// buyer's message). The Message-ID is fixed per row: should the app stop between the mail server's
// 250 and our record of it, the resend carries the same Message-ID, which receiving systems use
// to drop the duplicate.
import { MailError, mailErrorOf } from '../../integrations/mailer';
import { text } from '../fulfilment';
import type { StoreLineItem } from '../fulfilment';
import { printHold } from '../orders';
import { unitsToMake } from '../../../../common/api/units';
import type { StepRunner } from './attempt';
import { buyerOf } from './buyer';
import { ecardDesignProblem, ecardOf, ecardPicture, ecardPictureOf, renderEcardFront } from './ecard';
import { nowIso } from '../fulfilment';


const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const sendEcard: StepRunner = async (ctx, job) => {
  const { order, site, settings, payload } = job;
  const hold = printHold(order.data, 'paid');
  if (hold) return { notNeeded: `${hold.message}: the e-card was not sent` };
  const line = (order.data.line_items ?? []).find((l) => text(l.id) === payload.lineId) as StoreLineItem | undefined;
  if (!line || unitsToMake(line) === 0) return { notNeeded: `The line ${payload.lineId} was removed or refunded in the store: the e-card was not sent` };
  const [mapping] = await ctx.production.mapLines(payload.siteId, { line_items: [line] });
  if (!mapping.design || !mapping.ecard) return { notNeeded: `The line ${payload.lineId} is not an e-card any more (${mapping.reason ?? `its design "${mapping.design?.name}" is not of type E-card`})` };
  const details = ecardOf(line);
  if (!details.ok) return { failed: `The e-card cannot be sent: ${details.problems.join('; ')}` };
  const card = details.ecard;
  const designProblem = ecardDesignProblem(mapping.design);
  if (designProblem) return { failed: `The e-card cannot be sent: ${designProblem}` };
  const picture = ecardPictureOf(mapping.design);
  const front = picture
    ? await ecardPicture(mapping.design, await ctx.fetchPicture(picture)).then((p) => ({ png: p.image, width: p.width, height: p.height, missing: [] as string[], contentType: p.contentType }))
    : { ...(await renderEcardFront(ctx.render, mapping.design, line)), contentType: 'image/png' as const };
  const buyer = buyerOf(order.data as Record<string, unknown>);
  const fromPerson = [buyer.first, buyer.last].filter(Boolean).join(' ');
  const subject = fromPerson ? `${fromPerson} sent you an e-card` : `An e-card from ${site.name}`;
  const greeting = card.recipientName ? `Dear ${card.recipientName},` : 'Hello,';
  const signed = fromPerson ? `From ${fromPerson}` : '';
  const messageId = `<ecard.${payload.siteId}.${payload.orderId}.${payload.lineId}.${job.row.id}@presswork>`;
  const html = [
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f4;font-family:Georgia,serif;color:#222">',
    '<div style="max-width:640px;margin:0 auto;background:#fff;padding:24px;border-radius:6px">',
    `<p style="font-size:18px">${escapeHtml(greeting)}</p>`,
    `<img src="cid:ecard-front@presswork" alt="${escapeHtml(`E-card: ${mapping.design.name}`)}" width="${Math.min(592, front.width)}" style="display:block;width:100%;max-width:592px;height:auto;border:0">`,
    card.message ? `<p style="font-size:18px;white-space:pre-wrap">${escapeHtml(card.message)}</p>` : '',
    signed ? `<p style="font-size:16px">${escapeHtml(signed)}</p>` : '',
    `<p style="font-size:12px;color:#777">Sent by ${escapeHtml(site.name)} on behalf of the sender.</p>`,
    '</div></body></html>',
  ].join('');
  const textPart = [greeting, '', `You have been sent an e-card ("${mapping.design.name}"): it is shown in the HTML version of this e-mail.`, '', card.message, '', signed, '', `Sent by ${site.name} on behalf of the sender.`]
    .filter((l, i, all) => !(l === '' && all[i - 1] === ''))
    .join('\n');
  const mailer = ctx.mailerFor(settings.smtpUrl);
  try {
    await job.progress({ sendStartedAt: nowIso(ctx), messageId, recipient: card.recipientEmail });
    const sent = await mailer.send({
      from: { name: settings.senderName, address: settings.ecardFrom },
      to: { name: card.recipientName, address: card.recipientEmail },
      subject,
      text: textPart,
      html,
      messageId,
      attachments: [{ filename: front.contentType === 'image/jpeg' ? 'e-card.jpg' : 'e-card.png', content: front.png, contentType: front.contentType, cid: 'ecard-front@presswork' }],
    });
    return { done: { messageId: sent.messageId || messageId, ref: sent.messageId || messageId, recipient: card.recipientEmail, response: sent.response, accepted: sent.accepted, missing: front.missing } };
  } catch (err) {
    const e = err instanceof MailError ? err : mailErrorOf(err);
    // A 4xx reply or no connection is tried again (attempt.ts); a refusal is the operator's to look at.
    if (e.kind === 'temporary') throw e;
    return { failed: `The mail server refused the e-card to ${card.recipientEmail}: ${e.message}`, details: { responseCode: e.responseCode, response: e.response } };
  } finally {
    mailer.close();
  }
};
