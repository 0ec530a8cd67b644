// Fixtures and a fetch router for the print-production screens' tests.
import type { Design } from '../../../common/api/printProduction';
import type { PrintJob } from '../../../common/api/printProduction';
import { jsonResponse, type RecordedCall } from './helpers';

export function printJob(overrides: Partial<PrintJob> = {}): PrintJob {
  return {
    id: 1,
    productName: 'Birthday card',
    previewUrl: '/files/previews/1.png',
    quantity: 2,
    createdAt: new Date(Date.now() - (2 * 24 + 4) * 3600_000).toISOString(),
    updatedAt: new Date(Date.now() - (2 * 24 + 4) * 3600_000).toISOString(),
    isPrinted: false,
    isPDFDownloaded: false,
    isRePrinted: false,
    readyForPrint: true,
    clientId: 1,
    artworkUrls: ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'],
    productId: null,
    designId: null,
    shopifyOrderId: null,
    lineItemId: null,
    data: {},
    madeBy: 'inHouse',
    withdrawn: null,
    productionNote: null,
    orderName: null,
    orderCreatedAt: null,
    orderStatus: null,
    stockHold: null,
    shipBy: null,
    due: 'ok',
    clientName: 'Site A',
    productType: null,
    held: false,
    preflight: [],
    preflightApproval: null,
    preflightCheckedAt: null,
    reprintCount: 0,
    downloadedAt: null,
    downloadedByUserId: null,
    printedAt: null,
    printedByUserId: null,
    printedByName: null,
    packedAt: null,
    packedByUserId: null,
    packedByName: null,
    lastReprint: null,
    ...overrides,
  };
}

export function design(overrides: Partial<Design> = {}): Design {
  return {
    id: 5,
    name: 'Robin card',
    image: '/files/designs/robin.png',
    sku: 'CARD-ROBIN',
    isCustomizable: true,
    productPdf: null,
    createdByUserId: 1,
    productId: 'P-5',
    productType: 'Card',
    stock: null,
    hpSKU: 'HP-A5-CARD',
    hpAdditionData: { attributes: [{ name: 'finish', value: 'matt' }], stockItems: [] },
    data: { artworkUrls: [] },
    siteId: 1,
    createdAt: '2025-06-01T10:00:00.000Z',
    updatedAt: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export const ok = (data: unknown) => jsonResponse({ success: true, data });
export const fail = (error: string, status = 400) => jsonResponse({ success: false, error }, status);

export function pdfResponse() {
  return new Response(new Blob(['%PDF-1.7 test']), {
    status: 200,
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="print-file.pdf"' },
  });
}

type Handler = (call: RecordedCall) => Response | Promise<Response> | undefined;

/** Routes stubbed fetch calls by "METHOD path-prefix"; /api/users/me answers the signed-in user by default. */
export const SITES = [
  { id: 1, name: 'Site A' },
  { id: 2, name: 'Site B' },
];

export function router(routes: Record<string, Handler>, me: unknown) {
  return (call: RecordedCall): Response | Promise<Response> => {
    for (const [key, handler] of Object.entries(routes)) {
      const [method, prefix] = key.split(' ');
      if (call.method === method && call.url.startsWith(prefix)) {
        const answer = handler(call);
        if (answer) return answer;
      }
    }
    if (call.url === '/api/users/me') return ok(me);
    // The admins' client picker.
    if (call.method === 'GET' && call.url.startsWith('/api/admin/sites?')) return jsonResponse(SITES, 200, { 'Content-Range': `sites 0-${SITES.length - 1}/${SITES.length}` });
    return fail(`No stub for ${call.method} ${call.url}`, 404);
  };
}
