import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Design } from '../../../../common/api/printProduction';
import { jsonResponse, fakeFetch, type RecordedCall } from '../../test/helpers';
import { design } from '../../test/printProduction';
import { addLayer, createImageLayer, newDocument } from '../../../../common/design-doc/model';
import { EditorPage } from './EditorPage';

// A test worker runs several files with one module cache: the editor an earlier file loaded uses
// the real renderPages. Load the modules afresh for this file, so the mock below applies, and
// afresh again after it, so no later file gets the mock.
vi.hoisted(() => vi.resetModules());
afterAll(() => {
  vi.doUnmock('./renderPages');
  vi.resetModules();
});

// Print-resolution rendering needs a real canvas (the browser, or the server's): here it is stubbed,
// the save flow around it is what is tested. The render itself is tested with the shared renderer.
vi.mock('./renderPages', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./renderPages')>();
  const png = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' });
  return {
    ...actual,
    renderPageCanvas: vi.fn(async () => null),
    renderPrintPage: vi.fn(async () => png()),
    renderPreview: vi.fn(async () => png()),
    // jsdom loads no pictures: a photo measures what a browser would say (600 × 400 px).
    loadImage: vi.fn(async () => ({ naturalWidth: 600, naturalHeight: 400 }) as HTMLImageElement),
  };
});

const ORIGIN = window.location.origin;
const INIT = { source: 'presswork-host', type: 'init', token: 'frame-token', designId: 5, apiBase: ORIGIN };

let frame: HTMLIFrameElement;
let parentWindow: Window;
let postToParent: ReturnType<typeof vi.fn>;

beforeEach(() => {
  // The editor runs in a frame: window.parent is another window (here, an iframe's).
  frame = document.createElement('iframe');
  document.body.appendChild(frame);
  parentWindow = frame.contentWindow!;
  postToParent = vi.fn();
  vi.spyOn(parentWindow, 'postMessage').mockImplementation(postToParent as never);
  Object.defineProperty(window, 'parent', { configurable: true, writable: true, value: parentWindow });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

afterEach(() => {
  Object.defineProperty(window, 'parent', { configurable: true, writable: true, value: window });
  frame.remove();
});

function message(data: unknown, origin: string, source: Window | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

const HOST_ELSEWHERE = 'https://host.example.com';

/** The API as the editor sees it. `calls` records every call but the app-config one made at start. */
function stubEditorApi(record: Design, options: { failArtwork?: boolean } = {}) {
  let uploads = 0;
  const calls: RecordedCall[] = [];
  fakeFetch((call: RecordedCall) => {
    const path = call.url.startsWith(ORIGIN) ? call.url.slice(ORIGIN.length) : call.url;
    if (call.method === 'GET' && path === '/api/app-config') return jsonResponse({ success: true, data: { editorAllowedParentOrigins: [HOST_ELSEWHERE] } });
    calls.push(call);
    if (call.method === 'GET' && path === `/api/designs/${record.id}`) return jsonResponse({ success: true, data: record });
    if (call.method === 'POST' && path === '/api/designs') {
      const body = call.body as { data?: Record<string, unknown>; image?: string };
      if (options.failArtwork && body.data?.artworkUrls) return jsonResponse({ success: false, error: 'data.artworkUrls.0: must be a URL' }, 400);
      return jsonResponse({ success: true, data: { ...record, data: { ...record.data, ...body.data }, image: body.image ?? record.image } });
    }
    if (call.method === 'POST' && path === '/api/users/me/get-upload-url') {
      const { serverSidePath } = call.body as { serverSidePath: string };
      return jsonResponse({ success: true, data: `${ORIGIN}/uploads/${serverSidePath}?sig=s${++uploads}` });
    }
    if (call.method === 'PUT' && path.startsWith('/uploads/')) {
      const key = path.slice('/uploads/'.length).split('?')[0];
      return jsonResponse({ success: true, data: { key, url: `/files/${key}` } });
    }
    return jsonResponse({ success: false, error: `No stub for ${call.method} ${call.url}` }, 404);
  });
  return { calls };
}

/** Renders the editor and waits until it listens and has said `ready`. */
async function renderEditor() {
  render(<EditorPage />);
  await waitFor(() => expect(postToParent).toHaveBeenCalled());
}

const sentToParent = () => postToParent.mock.calls.map(([data, origin]) => ({ data, origin }));

describe('Design editor (/editor): the frame protocol, editor side', () => {
  it('posts ready to the parent at the exact expected origin, never *', async () => {
    stubEditorApi(design());
    await renderEditor();
    expect(sentToParent()).toEqual([{ data: { source: 'presswork-editor', type: 'ready' }, origin: ORIGIN }]);
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to the Design screen');
  });

  it('ignores init from another origin, from a window other than its parent, or of another shape', async () => {
    const { calls } = stubEditorApi(design());
    await renderEditor();
    message(INIT, 'https://evil.example.com', parentWindow);
    message(INIT, ORIGIN, window);
    message(INIT, ORIGIN, null);
    message({ ...INIT, source: 'someone-else' }, ORIGIN, parentWindow);
    message({ ...INIT, token: '' }, ORIGIN, parentWindow);
    message({ ...INIT, apiBase: 'javascript:alert(1)' }, ORIGIN, parentWindow);
    message('init', ORIGIN, parentWindow);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to the Design screen');

    // The real one: the design is loaded with the token from init.
    message(INIT, ORIGIN, parentWindow);
    expect(await screen.findByRole('toolbar', { name: 'Editor tools' })).toBeInTheDocument();
    expect(calls[0].url).toBe(`${ORIGIN}/api/designs/5`);
    expect(calls[0].headers.get('Authorization')).toBe('Bearer frame-token');
  });

  it('accepts init from a host origin configured on the server (EDITOR_ALLOWED_PARENT_ORIGINS)', async () => {
    const { calls } = stubEditorApi(design());
    await renderEditor();
    message(INIT, 'https://not-configured.example.com', parentWindow);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);
    message(INIT, HOST_ELSEWHERE, parentWindow);
    expect(await screen.findByRole('toolbar', { name: 'Editor tools' })).toBeInTheDocument();
    expect(calls[0].url).toBe(`${ORIGIN}/api/designs/5`);
  });

  it('opens a card design on its four pages', async () => {
    stubEditorApi(design());
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    const pages = await screen.findByRole('tablist', { name: 'Pages' });
    expect(within(pages).getAllByRole('tab').map((t) => t.getAttribute('aria-label'))).toEqual(['Front', 'Inside left', 'Inside right', 'Back']);
  });

  it('opens an E-card design on its one Front page and saves it as an e-card: one page of artwork', async () => {
    const user = userEvent.setup();
    const { calls } = stubEditorApi(design({ productType: 'E-card' }));
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    const pages = await screen.findByRole('tablist', { name: 'Pages' });
    expect(within(pages).getAllByRole('tab').map((t) => t.getAttribute('aria-label'))).toEqual(['Front']);
    await user.click(await screen.findByRole('button', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Design saved, with its print artwork.');
    const posts = calls.filter((c) => c.method === 'POST' && c.url === `${ORIGIN}/api/designs`);
    expect((posts[0].body as { data: { document: { format: string } } }).data.document.format).toBe('ecard');
    expect(posts[1].body).toEqual({ id: 5, data: { artworkUrls: ['/files/designs/5/1-front.png'] }, image: '/files/designs/5/preview.png' });
  });

  it('posts dirty on changes, saves the document then the artwork, and posts design-saved with the design id', async () => {
    const user = userEvent.setup();
    const { calls } = stubEditorApi(design());
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    await user.click(await screen.findByRole('button', { name: 'Text' }));
    await waitFor(() => expect(sentToParent()).toContainEqual({ data: { source: 'presswork-editor', type: 'dirty', dirty: true }, origin: ORIGIN }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Design saved, with its print artwork.');

    const posts = calls.filter((c) => c.method === 'POST' && c.url === `${ORIGIN}/api/designs`);
    expect(posts).toHaveLength(2);
    const first = posts[0].body as { id: number; data: { document: { format: string; pages: { layers: { type: string }[] }[] } } };
    expect(first.id).toBe(5);
    expect(first.data.document.format).toBe('card-a5');
    expect(first.data.document.pages[0].layers.map((l) => l.type)).toEqual(['text']);
    expect(posts[1].body).toEqual({
      id: 5,
      data: {
        artworkUrls: ['/files/designs/5/1-front.png', '/files/designs/5/2-inside-left.png', '/files/designs/5/3-inside-right.png', '/files/designs/5/4-back.png'],
      },
      image: '/files/designs/5/preview.png',
    });
    // Every page went through the signed upload flow as PNG, with the frame's token.
    const grants = calls.filter((c) => c.url.endsWith('/api/users/me/get-upload-url'));
    expect(grants).toHaveLength(5);
    expect(grants.every((c) => (c.body as { contentType: string }).contentType === 'image/png')).toBe(true);
    expect(grants.every((c) => c.headers.get('Authorization') === 'Bearer frame-token')).toBe(true);
    expect(calls.filter((c) => c.method === 'PUT').every((c) => c.headers.get('Content-Type') === 'image/png')).toBe(true);

    const sent = sentToParent();
    expect(sent).toContainEqual({ data: { source: 'presswork-editor', type: 'design-saved', designId: 5 }, origin: ORIGIN });
    expect(sent[sent.length - 1]).toEqual({ data: { source: 'presswork-editor', type: 'dirty', dirty: false }, origin: ORIGIN });
    expect(sent.every((m) => m.origin === ORIGIN)).toBe(true);
  });

  it("warns of a soft photo by the design's site's rule (ppiThresholds), not the default one", async () => {
    // 600 px over 2 in: 300 ppi, sharp by the default rule (250), soft by a site that asks for 350.
    const photo = createImageLayer('card-a5', '/files/photo.jpg', { id: 'photo', name: 'Photo', x: 0, y: 0, width: 50.8, height: 33.87 });
    const record = { ...design({ data: { document: addLayer(newDocument('card-a5'), 0, photo) } }), ppiThresholds: { warning: 350, error: 200 } };
    stubEditorApi(record);
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    fireEvent.pointerDown(await screen.findByLabelText('Layer Photo'), { button: 0 });
    const status = await screen.findByText(/ppi at its printed size/);
    expect(status).toHaveTextContent('Page 1 photo “Photo” is 300 ppi at its printed size — 350 ppi or more prints sharp');
  });

  it("Bleed (mm) sets the design's own bleed: the canvas grows by it, it is saved, and empty is the format's again", async () => {
    const user = userEvent.setup();
    const { calls } = stubEditorApi(design());
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    const bleed = await screen.findByRole('spinbutton', { name: 'Bleed (mm)' });
    const overlay = screen.getByTestId('editor-overlay');
    // A5 (148 × 210 mm) with the card format's 3 mm each side.
    expect(overlay).toHaveAttribute('viewBox', '-3 -3 154 216');
    expect(bleed).toHaveValue(null);
    expect(screen.getByText("Empty: the format's 3 mm")).toBeInTheDocument();

    await user.type(bleed, '5');
    expect(overlay).toHaveAttribute('viewBox', '-5 -5 158 220');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Design saved, with its print artwork.');
    const saved = calls.find((c) => c.method === 'POST' && c.url === `${ORIGIN}/api/designs`)?.body as { data: { document: { bleed?: number } } };
    expect(saved.data.document.bleed).toBe(5);

    await user.clear(bleed);
    expect(overlay).toHaveAttribute('viewBox', '-3 -3 154 216');
  });

  it('shows a failed save clearly and does not post design-saved', async () => {
    const user = userEvent.setup();
    stubEditorApi(design(), { failArtwork: true });
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/The design was saved, but its print images could not be made: data.artworkUrls.0: must be a URL/)).toBeInTheDocument();
    expect(sentToParent().some((m) => (m.data as { type: string }).type === 'design-saved')).toBe(false);
  });

  it('refuses a saved document that fails validation, naming the bad field', async () => {
    const bad = { version: 1, format: 'card-a5', pages: [1, 2, 3, 4].map((n) => ({ id: `p${n}`, name: `P${n}`, background: '#fff', layers: [] })) };
    (bad.pages[2].layers as unknown[]).push({ id: 't', name: 'T', type: 'text', x: 0, y: 0, width: 10, height: 10, rotation: 0, opacity: 1, text: 'x', fontFamily: 'Comic Sans', fontSize: 12, fontWeight: 400, color: '#000', align: 'left', lineHeight: 1.2 });
    stubEditorApi(design({ data: { document: bad } }));
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    expect(await screen.findByText(/The saved design cannot be opened: pages\.2\.layers\.0\.fontFamily: must be one of Raleway/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start again from a blank design' })).toBeInTheDocument();
  });

  it('edits with undo/redo from the keyboard', async () => {
    const user = userEvent.setup();
    stubEditorApi(design());
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    await user.click(await screen.findByRole('button', { name: 'Rectangle' }));
    const layers = () => screen.queryAllByLabelText(/^Layer /);
    expect(layers()).toHaveLength(1);
    // Nudge with the arrow keys (Shift = 10 mm).
    const x = () => (screen.getByLabelText(/^Layer /) as unknown as SVGRectElement).getAttribute('x');
    const before = Number(x());
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(Number(x())).toBeCloseTo(before + 10);
    await user.keyboard('{ArrowLeft}');
    expect(Number(x())).toBeCloseTo(before + 9);
    await user.keyboard('{Control>}z{/Control}');
    expect(Number(x())).toBeCloseTo(before + 10);
    await user.keyboard('{Control>}z{/Control}{Control>}z{/Control}');
    expect(layers()).toHaveLength(0);
    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(layers()).toHaveLength(1);
  });
});

describe('allowedParentOrigins', async () => {
  const { allowedParentOrigins } = await import('./editorProtocol');
  it('is the own origin plus configured http(s) origins, reduced to origins; anything else is dropped', () => {
    expect(allowedParentOrigins('https://app.test', ['https://host.test/path?x=1', 'javascript:alert(1)', 'not a url', 42, 'https://app.test'])).toEqual([
      'https://app.test',
      'https://host.test',
    ]);
  });
});

describe('unsaved work survives a reloaded editor frame', () => {
  beforeEach(() => sessionStorage.clear());

  it('offers the draft back after a remount, marks it unsaved, and can discard it', async () => {
    const user = userEvent.setup();
    stubEditorApi(design());
    const first = render(<EditorPage />);
    await waitFor(() => expect(postToParent).toHaveBeenCalled());
    message(INIT, ORIGIN, parentWindow);
    await user.click(await screen.findByRole('button', { name: 'Text' }));
    await waitFor(() => expect(sessionStorage.getItem('presswork-editor-draft-5')).toContain('"type":"text"'));
    first.unmount();

    postToParent.mockClear();
    await renderEditor();
    message(INIT, ORIGIN, parentWindow);
    expect(await screen.findByText('Unsaved changes from before were restored.')).toBeInTheDocument();
    await waitFor(() => expect(sentToParent()).toContainEqual({ data: { source: 'presswork-editor', type: 'dirty', dirty: true }, origin: ORIGIN }));

    await user.click(screen.getByRole('button', { name: 'Discard them' }));
    expect(screen.queryByText('Unsaved changes from before were restored.')).not.toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.getItem('presswork-editor-draft-5')).toBeNull());
  });
});
