import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AttentionAnswer, AttentionCounts } from '../../../../common/api/attention';
import { Menu } from '../../layout/Menu';
import { ADMIN, jsonResponse, LocationDisplay, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { AttentionPage } from './AttentionPage';
import { AttentionProvider } from './useAttention';

const ZERO: AttentionCounts = { late: 0, atRisk: 0, held: 0, routingHeld: 0, hpNoAck: 0, notShipped: 0, sendFailed: 0, writeBackFailed: 0, pipelineFailed: 0, webhookFailing: 0, proofChange: 0, storeHoldRefused: 0, lowStock: 0, total: 0, critical: 0 };

const LATE_AND_HELD: AttentionAnswer = {
  items: [
    { kind: 'late', severity: 'critical', title: 'Order #1024 is late: ship by 25/11/2026 14:00', link: '/check-order?id=1024', since: '2026-11-25T14:00:00.000Z', siteId: 1, orderId: '1024', jobId: 7 },
    { kind: 'held', severity: 'warning', title: 'Job 8 (Robin card) of order #1000 is held by preflight: check its print file and approve or fix it', link: '/print-jobs?tab=held', since: '2026-11-24T09:00:00.000Z', siteId: 1, siteName: 'Presswork Demo', jobId: 8 },
  ],
  // 102 held jobs: the answer carries 100 of a kind at most.
  counts: { ...ZERO, late: 1, held: 102, total: 103, critical: 1 },
};

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}

function renderPage(answers: AttentionAnswer[]) {
  signIn(USER);
  let asked = 0;
  const fetches = fakeFetch((call) => {
    if (call.url.startsWith('/api/attention')) return jsonResponse({ success: true, data: answers[Math.min(asked++, answers.length - 1)] });
    return jsonResponse({ success: true, data: USER });
  });
  renderInAdmin(
    <AttentionProvider>
      <Menu />
      <AttentionPage />
      <LocationDisplay />
    </AttentionProvider>,
    { path: '/attention' },
  );
  return { attentionCalls: () => fetches.calls.filter((c) => c.url.startsWith('/api/attention')).length };
}

afterEach(() => {
  vi.useRealTimers();
  setHidden(false);
});

describe('Needs attention', () => {
  it('lists the problems worst first, each a link to where it is fixed, with "and N more"', async () => {
    renderPage([LATE_AND_HELD]);
    const list = await screen.findByRole('list', { name: 'Problems, worst first' });
    const rows = within(list).getAllByRole('link');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('Order #1024 is late'), expect.stringContaining('Job 8 (Robin card) of order #1000 is held by preflight')]);
    expect(rows[0]).toHaveAttribute('href', '/check-order?id=1024');
    expect(within(rows[0]).getByText('Critical')).toBeInTheDocument();
    expect(rows[1]).toHaveAttribute('href', '/print-jobs?tab=held');
    // An admin's answer names each row's site.
    expect(within(rows[1]).getByText(/^Presswork Demo · Since 24\/11\/2026/)).toBeInTheDocument();
    expect(screen.getByText('Held by preflight: and 101 more')).toBeInTheDocument();
    expect(screen.getByText('103 problems, 1 critical')).toBeInTheDocument();
    fireEvent.click(rows[1]);
    expect(screen.getByTestId('location')).toHaveTextContent('/print-jobs?tab=held');
  });

  it('the menu shows the total on Needs attention and the held jobs on Jobs, and a screen reader hears both', async () => {
    renderPage([LATE_AND_HELD]);
    // MUI hides the badge from screen readers: the entry's name carries its count.
    const attention = await screen.findByRole('menuitem', { name: 'Needs attention, 103 problems, 1 critical' });
    expect(attention.querySelector('.MuiBadge-badge')).toHaveTextContent('103');
    const jobs = screen.getByRole('menuitem', { name: 'Jobs, 102 held by preflight' });
    expect(jobs.querySelector('.MuiBadge-badge')).toHaveTextContent('102');
  });

  it('says calmly when nothing needs attention, and shows no badge', async () => {
    renderPage([{ items: [], counts: ZERO }]);
    expect(await screen.findByText('Nothing needs attention')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Needs attention' }).querySelector('.MuiBadge-badge')).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Jobs' })).toBeInTheDocument();
  });

  it('asks again every 30 seconds, not while the tab is hidden, and at once when it is shown again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const page = renderPage([{ items: [], counts: ZERO }, LATE_AND_HELD, { items: [], counts: ZERO }]);
    expect(await screen.findByText('Nothing needs attention')).toBeInTheDocument();
    expect(page.attentionCalls()).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(await screen.findByRole('menuitem', { name: 'Needs attention, 103 problems, 1 critical' })).toBeInTheDocument();
    expect(page.attentionCalls()).toBe(2);
    act(() => setHidden(true));
    await act(async () => {
      vi.advanceTimersByTime(120_000);
    });
    expect(page.attentionCalls()).toBe(2);
    act(() => setHidden(false));
    await waitFor(() => expect(page.attentionCalls()).toBe(3));
    expect(await screen.findByText('Nothing needs attention')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Needs attention' })).toBeInTheDocument();
  });

  it('sends back the ETag it holds; a 304 keeps the list shown, a new answer replaces it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(USER);
    const replies: Array<() => Response> = [
      () => jsonResponse({ success: true, data: LATE_AND_HELD }, 200, { ETag: '"first"' }),
      () => new Response(null, { status: 304, headers: { ETag: '"first"' } }),
      () => jsonResponse({ success: true, data: { items: [], counts: ZERO } }, 200, { ETag: '"second"' }),
    ];
    const fetches = fakeFetch((call) => (call.url.startsWith('/api/attention') ? replies.shift()!() : jsonResponse({ success: true, data: USER })));
    renderInAdmin(
      <AttentionProvider>
        <Menu />
        <AttentionPage />
      </AttentionProvider>,
      { path: '/attention' },
    );
    const sent = () => fetches.calls.filter((c) => c.url.startsWith('/api/attention')).map((c) => c.headers.get('If-None-Match'));
    expect(await screen.findByText('103 problems, 1 critical')).toBeInTheDocument();
    expect(sent()).toEqual([null]);
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    await waitFor(() => expect(sent()).toEqual([null, '"first"']));
    expect(screen.getByText('103 problems, 1 critical')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(await screen.findByText('Nothing needs attention')).toBeInTheDocument();
    expect(sent()).toEqual([null, '"first"', '"first"']);
  });

  describe('a line a routing rule held', () => {
    const HELD_LINE: AttentionAnswer = {
      items: [
        {
          kind: 'routingHeld',
          severity: 'warning',
          title: 'Line 901 of order #1042 is held: A VIP order: check it first. Route it now, or send or make it by hand',
          link: '/check-order?id=1042',
          since: '2026-11-24T09:00:00.000Z',
          siteId: 1,
          orderId: '1042',
          lineId: '901',
        },
      ],
      counts: { ...ZERO, routingHeld: 1, total: 1 },
    };

    function renderHeld(user: typeof ADMIN, routeAnswer: () => Response) {
      signIn(user);
      let asked = 0;
      const fetches = fakeFetch((call) => {
        if (call.url.startsWith('/api/attention')) return jsonResponse({ success: true, data: asked++ === 0 ? HELD_LINE : { items: [], counts: ZERO } });
        if (call.url.includes('/routing/route-now')) return routeAnswer();
        return jsonResponse({ success: true, data: user });
      });
      renderInAdmin(
        <AttentionProvider>
          <AttentionPage />
        </AttentionProvider>,
        { path: '/attention' },
      );
      return { routeCalls: () => fetches.calls.filter((c) => c.url.includes('/routing/route-now')), attentionCalls: () => fetches.calls.filter((c) => c.url.startsWith('/api/attention')).length };
    }

    it('shows the rule\'s reason and Route now; choosing Make in house routes that line and the list asks again', async () => {
      const page = renderHeld(ADMIN, () => jsonResponse({ success: true, data: { lines: [{ lineId: '901', action: 'inHouse', ruleId: null, reason: null }] } }));
      expect(await screen.findByText(/is held: A VIP order: check it first/)).toBeInTheDocument();
      expect(screen.getByText('Held by a routing rule')).toBeInTheDocument();
      // The row still opens Check order; Route now sits beside the link, not inside it.
      const link = screen.getByRole('link', { name: /Line 901 of order #1042/ });
      const button = screen.getByRole('button', { name: 'Route now: line 901' });
      expect(link).not.toContainElement(button);
      fireEvent.click(button);
      const dialog = await screen.findByRole('dialog', { name: 'Route line 901 now' });
      expect(within(dialog).getByRole('radio', { name: "By today's routing rules" })).toBeChecked();
      fireEvent.click(within(dialog).getByRole('radio', { name: 'Make in house (a print job now)' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Route now' }));
      await waitFor(() => expect(page.routeCalls()).toHaveLength(1));
      const [call] = page.routeCalls();
      expect(call.url).toBe('/api/sites/1/routing/route-now');
      expect(call.method).toBe('POST');
      expect(call.body).toEqual({ orderId: '1042', lineId: '901', to: 'inHouse' });
      expect(call.headers.get('Idempotency-Key')).toBeTruthy();
      await waitFor(() => expect(page.attentionCalls()).toBe(2));
      expect(await screen.findByText('Nothing needs attention')).toBeInTheDocument();
    });

    it('by today\'s rules: a line still held says why and the dialog stays; a refusal is shown as the server says it', async () => {
      const answers = [
        () => jsonResponse({ success: true, data: { lines: [{ lineId: '901', action: 'hold', ruleId: 'vip', reason: 'A VIP order: check it first' }] } }),
        () => jsonResponse({ success: false, error: 'Line 901 cannot be sent to HP Site Flow: The design "Robin" has no provider SKU (hpSKU)' }, 409),
      ];
      const page = renderHeld(ADMIN, () => answers.shift()!());
      fireEvent.click(await screen.findByRole('button', { name: 'Route now: line 901' }));
      const dialog = await screen.findByRole('dialog', { name: 'Route line 901 now' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Route now' }));
      expect(await within(dialog).findByText("Still held by today's rules: A VIP order: check it first")).toBeInTheDocument();
      expect(page.routeCalls()[0].body).toEqual({ orderId: '1042', lineId: '901' });
      fireEvent.click(within(dialog).getByRole('radio', { name: 'Send to HP Site Flow (its own provider order)' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Route now' }));
      expect(await within(dialog).findByText(/cannot be sent to HP Site Flow: The design "Robin" has no provider SKU/)).toBeInTheDocument();
      expect(page.routeCalls()[1].body).toEqual({ orderId: '1042', lineId: '901', to: 'provider' });
      expect(page.attentionCalls()).toBe(1);
    });

    it('staff of the site route it too: the call names the line\'s site', async () => {
      const page = renderHeld(USER, () => jsonResponse({ success: true, data: { lines: [{ lineId: '901', action: 'provider', ruleId: null, reason: null }] } }));
      fireEvent.click(await screen.findByRole('button', { name: 'Route now: line 901' }));
      const dialog = await screen.findByRole('dialog', { name: 'Route line 901 now' });
      fireEvent.click(within(dialog).getByRole('radio', { name: 'Send to HP Site Flow (its own provider order)' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Route now' }));
      await waitFor(() => expect(page.routeCalls()).toHaveLength(1));
      expect(page.routeCalls()[0].url).toBe('/api/sites/1/routing/route-now');
      expect(page.routeCalls()[0].body).toEqual({ orderId: '1042', lineId: '901', to: 'provider' });
    });
  });
});
