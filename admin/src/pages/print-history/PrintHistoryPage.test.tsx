import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { fail, ok, pdfResponse, printJob, router } from '../../test/printProduction';
import { PrintHistoryPage } from './PrintHistoryPage';

const PRINTED = printJob({ id: 11, productName: 'Robin card', isPrinted: true, isPDFDownloaded: true });

function renderHistory() {
  renderInAdmin(<PrintHistoryPage />, { path: '/print-history', routePath: '/print-history' });
}

describe('Print History (/print-history)', () => {
  it('lists printed jobs with Reprint as the last column', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [PRINTED], hasNext: false, total: 1 }) }, USER));
    renderHistory();
    await screen.findByTestId('print-job-11');
    expect(calls.find((c) => c.url.startsWith('/api/print-jobs'))?.url).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=1');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['', 'Order', 'Product', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Printed At', 'Printed By', 'Production Notes', 'PDF', 'History', 'Reprint']);
    expect(document.title).toBe('Print History | Presswork');
  });

  it('Reprint asks why and who is responsible, then sends the job back to the queue and fades the row out', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [PRINTED], hasNext: false, total: 1 }),
          'POST /api/print-jobs': (call) => ok({ ...PRINTED, ...(call.body as object) }),
        },
        USER,
      ),
    );
    renderHistory();
    const row = await screen.findByTestId('print-job-11');
    await user.click(within(row).getByRole('button', { name: 'Reprint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprint Robin card (#11)' });
    expect(within(dialog).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual([
      'Print defect', 'Damaged in transit', 'Customer error', 'Address error', 'Lost in post', 'File defect', 'Other', 'Shop', 'Customer', 'Carrier', 'Provider',
    ]);
    // Nothing chosen: Confirm says what is missing and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a reason and who is responsible.');
    // Other needs a few words.
    await user.click(within(dialog).getByRole('radio', { name: 'Other' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Carrier' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByText('Say what happened: it is required for Other.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /What happened/ }), 'Box crushed');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(row).toHaveStyle({ opacity: '0' }));
    await waitFor(() => expect(screen.queryByTestId('print-job-11')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { id: 11, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'other', reprintResponsible: 'carrier', reprintNote: 'Box crushed' },
    ]);
  });

  it('keeps the row and shows the server error when the reprint is refused', async () => {
    signIn(USER);
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [PRINTED], hasNext: false, total: 1 }),
          'POST /api/print-jobs': () => fail('This job is not printed', 409),
        },
        USER,
      ),
    );
    renderHistory();
    const row = await screen.findByTestId('print-job-11');
    await user.click(within(row).getByRole('button', { name: 'Reprint' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Print defect' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Shop' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('This job is not printed')).toBeInTheDocument();
    expect(screen.getByTestId('print-job-11')).toBeInTheDocument();
  });
});

describe('Print History for operators', () => {
  it('shows the order, for an admin the client, and when and by whom it was printed', async () => {
    signIn(ADMIN);
    const job = printJob({ id: 12, productName: 'Robin card', isPrinted: true, isPDFDownloaded: true, orderName: '#1042', clientName: 'Site B', printedAt: '2026-11-24T09:15:00.000Z', printedByName: 'Ann Printer' });
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [job], hasNext: false, total: 1 }) }, ADMIN));
    renderHistory();
    const row = await screen.findByTestId('print-job-12');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '', 'Order', 'Product', 'Client', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Printed At', 'Printed By', 'Production Notes', 'PDF', 'History', 'Reprint',
    ]);
    expect(within(row).getByText('#1042')).toBeInTheDocument();
    expect(within(row).getByText('Site B')).toBeInTheDocument();
    expect(within(row).getByText(/^24\/11\/2026 \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(row).getByText('Ann Printer')).toBeInTheDocument();
  });

  it("the PDF column downloads a printed job's file again (from: history), asking nothing and changing nothing", async () => {
    signIn(USER);
    const user = userEvent.setup();
    const downloads: string[] = [];
    URL.createObjectURL = () => 'blob:print-file';
    URL.revokeObjectURL = () => {};
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    };
    try {
      const { calls } = fakeFetch(
        router({ 'GET /api/print-jobs': () => ok({ list: [PRINTED], hasNext: false, total: 1 }), 'POST /api/pdf/from-print-job': () => pdfResponse() }, USER),
      );
      renderHistory();
      const row = await screen.findByTestId('print-job-11');
      await user.click(within(row).getByRole('button', { name: 'PDF' }));
      await waitFor(() => expect(downloads).toEqual(['print-file.pdf']));
      expect(calls.filter((c) => c.url === '/api/pdf/from-print-job').map((c) => c.body)).toEqual([{ id: 11, from: 'history' }]);
      expect(calls.some((c) => c.method === 'POST' && c.url === '/api/print-jobs')).toBe(false);
      expect(within(row).queryByText('Have you printed?')).not.toBeInTheDocument();
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('what is filled in the Reprint dialog stays when the rows are rebuilt under it (a tablet turned to portrait)', async () => {
    // A screen width that can change during the test: rows become cards, every Reprint button is a new one.
    const saved = window.matchMedia;
    let small = false;
    const listeners = new Set<() => void>();
    window.matchMedia = ((query: string) => ({
      get matches() {
        return small && query.includes('max-width');
      },
      media: query,
      onchange: null,
      addListener: (l: () => void) => listeners.add(l),
      removeListener: (l: () => void) => listeners.delete(l),
      addEventListener: (_type: string, l: () => void) => listeners.add(l),
      removeEventListener: (_type: string, l: () => void) => listeners.delete(l),
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    try {
      signIn(USER);
      const user = userEvent.setup();
      const { calls } = fakeFetch(
        router(
          {
            'GET /api/print-jobs': () => ok({ list: [PRINTED], hasNext: false, total: 1 }),
            'POST /api/print-jobs': (call) => ok({ ...PRINTED, ...(call.body as object) }),
          },
          USER,
        ),
      );
      renderHistory();
      const row = await screen.findByTestId('print-job-11');
      await user.click(within(row).getByRole('button', { name: 'Reprint' }));
      const dialog = await screen.findByRole('dialog', { name: 'Reprint Robin card (#11)' });
      await user.click(within(dialog).getByRole('radio', { name: 'Print defect' }));
      await user.click(within(dialog).getByRole('radio', { name: 'Shop' }));
      await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Colours came out dark');
      act(() => {
        small = true;
        listeners.forEach((l) => l());
      });
      await waitFor(() => expect(screen.queryByRole('table', { name: 'Print jobs' })).not.toBeInTheDocument());
      const still = screen.getByRole('dialog', { name: 'Reprint Robin card (#11)' });
      expect(within(still).getByRole('textbox', { name: /Note/ })).toHaveValue('Colours came out dark');
      await user.click(within(still).getByRole('button', { name: 'Confirm' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { id: 11, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop', reprintNote: 'Colours came out dark' },
      ]);
    } finally {
      window.matchMedia = saved;
    }
  });
});
