import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CaughtEmail, CaughtEmailSummary } from '../../../../common/api/mailCatcher';
import { menuEntriesFor } from '../../layout/menuConfig';
import { withInlineImages } from '../../providers/mailCatcher';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { CaughtEmailsPage } from './CaughtEmailsPage';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const LIST: CaughtEmailSummary[] = [
  { id: 2, receivedAt: '2025-03-08T10:00:00Z', from: 'cards@charity.example.org', to: 'ann@example.net', subject: 'A card for you', size: 2048, attachmentCount: 1 },
  { id: 1, receivedAt: '2025-03-08T09:00:00Z', from: 'presswork@localhost', to: 'admin@example.net', subject: 'Presswork test message', size: 500, attachmentCount: 0 },
];

const CARD: CaughtEmail = {
  ...LIST[0],
  envelope: { from: 'cards@charity.example.org', to: ['ann@example.net'] },
  messageId: '<ecard.12.1001.555@presswork>',
  text: 'Happy birthday, Ann!\nFrom Bob',
  html: '<p>Happy birthday, Ann!</p><img src="cid:front@presswork" alt="card">',
  attachments: [{ index: 0, filename: 'card.png', contentType: 'image/png', cid: 'front@presswork', size: PNG.length }],
};

function renderPage() {
  renderInAdmin(<CaughtEmailsPage />, { path: '/caught-emails', routePath: '/caught-emails' });
}

describe('Caught e-mails (/caught-emails)', () => {
  it('lists the caught e-mails newest first, and shows a clicked one as received with its inline image', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/test/caught-emails/2/attachments/0': () => new Response(PNG, { headers: { 'Content-Type': 'image/png' } }),
          'GET /api/test/caught-emails/2': () => ok(CARD),
          'GET /api/test/caught-emails': () => ok(LIST),
        },
        ADMIN,
      ),
    );
    renderPage();
    await screen.findByTestId('caught-email-2');
    const rows = within(screen.getByRole('table', { name: 'Caught e-mails' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2].textContent)).toEqual(['A card for you · 1 attachment', 'Presswork test message']);
    expect(within(rows[0]).getByText('ann@example.net')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('caught-email-2'));
    const headers = await screen.findByRole('table', { name: 'Headers' });
    expect(within(headers).getByText('<ecard.12.1001.555@presswork>')).toBeInTheDocument();
    expect(within(headers).getByText('A card for you')).toBeInTheDocument();
    expect(within(headers).getByText('cards@charity.example.org')).toBeInTheDocument();
    expect(screen.getByLabelText('Plain text part').textContent).toBe('Happy birthday, Ann!\nFrom Bob');
    const frame = await screen.findByTitle('HTML part');
    // Sandboxed: the message's HTML never runs scripts or reaches the app.
    expect(frame).toHaveAttribute('sandbox', '');
    // The cid: image is shown from the attachment, fetched with the session's token.
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('src="data:image/png;base64,iVBORw0KGgo="'));
    expect(frame.getAttribute('srcdoc')).not.toContain('cid:');
    const attachmentCall = calls.find((c) => c.url === '/api/test/caught-emails/2/attachments/0');
    expect(attachmentCall?.headers.get('Authorization')).toBe('Bearer test-token');
    expect(within(screen.getByRole('list', { name: 'Attachments' })).getByText(/image\/png, 8 B \(inline, cid:front@presswork\)/)).toBeInTheDocument();
  });

  it('sends a test e-mail to the address given, shows each step, and reloads the list', async () => {
    signIn(ADMIN);
    let listed = 0;
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/test/send-email': () =>
            ok({ service: 'email', site: 'site-a', ok: true, checks: [{ step: 'connection', url: 'smtp://127.0.0.1:2525', status: null, latencyMs: 3, ok: true, error: null }, { step: 'test message', url: 'smtp://127.0.0.1:2525', status: 250, latencyMs: 5, ok: true, error: null }] }),
          'GET /api/test/caught-emails': () => (listed++, ok(listed > 1 ? LIST : [])),
        },
        ADMIN,
      ),
    );
    renderPage();
    expect(await screen.findByText('No e-mail caught yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('To'), 'me@example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const answer = await screen.findByTestId('email-test-answer');
    expect(answer).toHaveTextContent('test message (smtp://127.0.0.1:2525): ok in 5 ms');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ to: 'me@example.org' });
    expect(await screen.findByTestId('caught-email-2')).toBeInTheDocument();
  });

  it('a server without the catcher says so', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/test/caught-emails': () => new Response(JSON.stringify({ success: false, error: 'No mail catcher runs on this server' }), { status: 404, headers: { 'Content-Type': 'application/json' } }) }, ADMIN));
    renderPage();
    expect(await screen.findByText('No mail catcher runs on this server')).toBeInTheDocument();
  });

  it('is not for users', async () => {
    signIn(USER);
    fakeFetch(router({}, USER));
    renderPage();
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Caught e-mails' })).not.toBeInTheDocument());
    expect(screen.queryByText('Send a test e-mail')).not.toBeInTheDocument();
  });
});

describe('the menu entry and the cid: rewriting', () => {
  it('is in the admin menu only while the server runs the catcher', () => {
    const labels = (running: boolean, role: 'admin' | 'user' = 'admin') => menuEntriesFor(role, { running: { mailCatcher: running } }).map((e) => e.label);
    expect(labels(true)).toContain('Caught e-mails');
    expect(labels(false)).not.toContain('Caught e-mails');
    expect(labels(true, 'user')).not.toContain('Caught e-mails');
  });

  it('points cid: references at the attachments it knows, and empties the others', () => {
    expect(withInlineImages('<img src="cid:a@x"><img src=\'cid:b\'><div style="background:url(cid:a%40x)">', { 'a@x': 'data:A' })).toBe('<img src="data:A"><img src=\'data:,\'><div style="background:url(data:A)">');
  });
});
