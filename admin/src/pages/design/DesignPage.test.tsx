import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Design } from '../../../../common/api/printProduction';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { design, ok, router } from '../../test/printProduction';
import { SAVE_EDITOR_FIRST_MESSAGE } from './AddToPrintJobsButton';
import { DesignPage, SAVE_INFO_FIRST_MESSAGE, SMALL_SCREEN_MESSAGE } from './DesignPage';

const EDITOR_ORIGIN = 'https://editor.example.com';

function setWindowWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  window.dispatchEvent(new Event('resize'));
}

// The Design Info form (react-admin inputs, array iterators) takes seconds to mount in jsdom.
beforeAll(() => configure({ asyncUtilTimeout: 10_000 }));
afterEach(() => setWindowWidth(1024));

function stubDesignApi(record: Design | null, me = ADMIN, extra: Record<string, (call: RecordedCall) => Response> = {}) {
  return fakeFetch(
    router(
      {
        ...extra,
        'GET /api/app-config': () => ok({ editorUrl: `${EDITOR_ORIGIN}/app`, sampleEditorUrl: '/sample-editor-embed' }),
        'GET /api/designs/': () => (record ? ok(record) : undefined),
      },
      me,
    ),
  );
}

function renderDesign(path: string) {
  renderInAdmin(<DesignPage />, { path, routePath: '/design/:id' });
}

function designFetches(calls: RecordedCall[], id: number) {
  return calls.filter((c) => c.method === 'GET' && c.url === `/api/designs/${id}`).length;
}

/** Posts a message to the host window as if it came from `source` at `origin`. */
function postToHost(data: unknown, origin: string, source: Window | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

async function editorFrame() {
  const frame = (await screen.findByTitle('Design editor')) as HTMLIFrameElement;
  const frameWindow = frame.contentWindow!;
  const postMessage = vi.spyOn(frameWindow, 'postMessage').mockImplementation(() => undefined);
  return { frame, frameWindow, postMessage };
}

describe('Design (/design/:id)', () => {
  it('shows only "Please use bigger screen to see this page." below 768 px', async () => {
    signIn(ADMIN);
    setWindowWidth(700);
    stubDesignApi(design());
    renderDesign('/design/5');
    expect(await screen.findByText(SMALL_SCREEN_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByTitle('Design editor')).not.toBeInTheDocument();
    expect(document.title).toBe('Design | Presswork');
  });

  it('a new design opens Design Info with "Please save Design info and continue"; the Editor tab says it again', async () => {
    signIn(USER);
    const user = userEvent.setup();
    stubDesignApi(null, USER);
    renderDesign('/design/new');
    expect(await screen.findByText(SAVE_INFO_FIRST_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Design Info' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Untitled design');

    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText(SAVE_INFO_FIRST_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Editor' }));
    expect(await screen.findByText(SAVE_INFO_FIRST_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Design Info' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByTitle('Design editor')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to print jobs' })).not.toBeInTheDocument();
  });

  it('saves a new design ("Save design successfully") and goes to its id', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = stubDesignApi(design({ id: 12, name: 'Untitled design', createdByUserId: 2 }), USER, {
      'POST /api/designs': () => ok(design({ id: 12, name: 'Untitled design', createdByUserId: 2 })),
    });
    renderDesign('/design/new');
    await user.type(await screen.findByLabelText('Paper stock'), ' 350 gsm silk ');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save design successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.url === '/api/designs')?.body).toEqual({
      name: 'Untitled design',
      isCustomizable: true,
      sku: '',
      productPdf: '',
      productType: null,
      stock: '350 gsm silk',
      hpSKU: '',
      hpAdditionData: { attributes: [], stockItems: [], componentCode: '' },
    });
    await waitFor(() => expect(designFetches(calls, 12)).toBe(1));
  });

  it('t=info opens Design Info first for an existing design', async () => {
    signIn(ADMIN);
    stubDesignApi(design());
    renderDesign('/design/5?t=info');
    expect(await screen.findByRole('tab', { name: 'Design Info' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Robin card');
    expect(screen.queryByText(SAVE_INFO_FIRST_MESSAGE)).not.toBeInTheDocument();
  });

  describe('editor frame protocol (host side)', () => {
    it('frames the editor with ?designId and answers `ready` with `init` posted to the editor origin exactly', async () => {
      signIn(ADMIN, 'secret-token');
      stubDesignApi(design());
      renderDesign('/design/5');
      const { frame, frameWindow, postMessage } = await editorFrame();
      expect(frame).toHaveAttribute('src', `${EDITOR_ORIGIN}/app?designId=5`);

      postToHost({ source: 'presswork-editor', type: 'ready' }, EDITOR_ORIGIN, frameWindow);
      expect(postMessage).toHaveBeenCalledTimes(1);
      expect(postMessage).toHaveBeenCalledWith(
        { source: 'presswork-host', type: 'init', token: 'secret-token', designId: 5, apiBase: window.location.origin },
        EDITOR_ORIGIN,
      );
    });

    it('ignores messages from a wrong origin, from another window, or of another shape', async () => {
      signIn(ADMIN);
      const { calls } = stubDesignApi(design());
      renderDesign('/design/5');
      const { frameWindow, postMessage } = await editorFrame();
      await waitFor(() => expect(designFetches(calls, 5)).toBe(1));

      postToHost({ source: 'presswork-editor', type: 'ready' }, 'https://evil.example.com', frameWindow);
      postToHost({ source: 'presswork-editor', type: 'ready' }, window.location.origin, frameWindow);
      postToHost({ source: 'presswork-editor', type: 'ready' }, EDITOR_ORIGIN, window);
      postToHost({ source: 'presswork-editor', type: 'ready' }, EDITOR_ORIGIN, null);
      postToHost({ source: 'someone-else', type: 'ready' }, EDITOR_ORIGIN, frameWindow);
      postToHost('ready', EDITOR_ORIGIN, frameWindow);
      postToHost({ source: 'presswork-editor', type: 'design-saved', designId: 5 }, 'https://evil.example.com', frameWindow);
      expect(postMessage).not.toHaveBeenCalled();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(designFetches(calls, 5)).toBe(1);
    });

    it('reloads the design on `design-saved` for this design, not for another one', async () => {
      signIn(ADMIN);
      const { calls } = stubDesignApi(design());
      renderDesign('/design/5');
      const { frameWindow } = await editorFrame();
      await waitFor(() => expect(designFetches(calls, 5)).toBe(1));

      postToHost({ source: 'presswork-editor', type: 'design-saved', designId: 6 }, EDITOR_ORIGIN, frameWindow);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(designFetches(calls, 5)).toBe(1);

      postToHost({ source: 'presswork-editor', type: 'design-saved', designId: '5' }, EDITOR_ORIGIN, frameWindow);
      await waitFor(() => expect(designFetches(calls, 5)).toBe(2));
    });

    it('asks before switching to Design Info while the editor reports unsaved work', async () => {
      signIn(ADMIN);
      const user = userEvent.setup();
      stubDesignApi(design());
      renderDesign('/design/5');
      const { frameWindow } = await editorFrame();
      const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);

      postToHost({ source: 'presswork-editor', type: 'dirty', dirty: true }, EDITOR_ORIGIN, frameWindow);
      await user.click(screen.getByRole('tab', { name: 'Design Info' }));
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('tab', { name: 'Editor' })).toHaveAttribute('aria-selected', 'true');

      await user.click(screen.getByRole('tab', { name: 'Design Info' }));
      expect(confirm).toHaveBeenCalledTimes(2);
      expect(screen.getByRole('tab', { name: 'Design Info' })).toHaveAttribute('aria-selected', 'true');
    });

    it('switches without asking when the editor has nothing unsaved', async () => {
      signIn(ADMIN);
      const user = userEvent.setup();
      stubDesignApi(design());
      renderDesign('/design/5');
      const { frameWindow } = await editorFrame();
      const confirm = vi.spyOn(window, 'confirm');
      postToHost({ source: 'presswork-editor', type: 'dirty', dirty: true }, EDITOR_ORIGIN, frameWindow);
      postToHost({ source: 'presswork-editor', type: 'dirty', dirty: false }, EDITOR_ORIGIN, frameWindow);
      await user.click(screen.getByRole('tab', { name: 'Design Info' }));
      expect(confirm).not.toHaveBeenCalled();
      expect(screen.getByRole('tab', { name: 'Design Info' })).toHaveAttribute('aria-selected', 'true');
    });

    it('expands the editor over the whole window and minimises it again without reloading the frame', async () => {
      signIn(ADMIN);
      const user = userEvent.setup();
      stubDesignApi(design());
      renderDesign('/design/5');
      const { frame } = await editorFrame();
      await user.click(screen.getByRole('button', { name: 'Expand' }));
      expect(screen.getByTestId('design-editor')).toHaveAttribute('data-expanded', 'true');
      expect(screen.getByTestId('design-editor')).toHaveStyle({ position: 'fixed' });
      await user.click(screen.getByRole('button', { name: 'Minimise' }));
      expect(screen.getByTestId('design-editor')).toHaveAttribute('data-expanded', 'false');
      expect(screen.getByTitle('Design editor')).toBe(frame);
    });
  });

  describe('Add to print jobs', () => {
    it('is hidden when the design has no data (no artwork, no product PDF)', async () => {
      signIn(ADMIN);
      stubDesignApi(design({ data: { artworkUrls: [] }, productPdf: null }));
      renderDesign('/design/5?t=info');
      await screen.findByRole('tab', { name: 'Design Info' });
      expect(screen.queryByRole('button', { name: 'Add to print jobs' })).not.toBeInTheDocument();
    });

    it('is hidden for an E-card, which is e-mailed, never printed, even with artwork', async () => {
      signIn(ADMIN);
      stubDesignApi(design({ productType: 'E-card', data: { artworkUrls: ['/files/designs/5/1-front.png'] } }));
      renderDesign('/design/5?t=info');
      await screen.findByRole('tab', { name: 'Design Info' });
      expect(screen.queryByRole('button', { name: 'Add to print jobs' })).not.toBeInTheDocument();
    });

    it('is shown with a product PDF only', async () => {
      signIn(ADMIN);
      stubDesignApi(design({ data: {}, productPdf: '/files/designs/robin.pdf' }));
      renderDesign('/design/5?t=info');
      expect(await screen.findByRole('button', { name: 'Add to print jobs' })).toBeInTheDocument();
    });

    it('adds one print job of the design for the user\'s site', async () => {
      signIn(USER);
      const user = userEvent.setup();
      const artworkUrls = ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'];
      const { calls } = stubDesignApi(design({ data: { artworkUrls } }), USER, {
        'POST /api/print-jobs': () => ok({ id: 99 }),
      });
      renderDesign('/design/5?t=info');
      await user.click(await screen.findByRole('button', { name: 'Add to print jobs' }));
      expect(await screen.findByText('Successfully added a print job')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST' && c.url === '/api/print-jobs')?.body).toEqual({
        clientId: 1,
        artworkUrls,
        previewUrl: '/files/designs/robin.png',
        productId: 'P-5',
        productName: 'Robin card',
        designId: 5,
        quantity: 1,
      });
    });
  });

  describe('Add to print jobs with the editor open', () => {
    it('refuses while the editor has unsaved changes, then prints the artwork the editor saved', async () => {
      signIn(USER);
      const user = userEvent.setup();
      let current = design({ data: { artworkUrls: ['/files/a/old.png'] } });
      const { calls } = stubDesignApi(current, USER, {
        'GET /api/designs/5': () => ok(current),
        'POST /api/print-jobs': () => ok({ id: 99 }),
      });
      renderDesign('/design/5');
      const { frameWindow } = await editorFrame();
      const add = await screen.findByRole('button', { name: 'Add to print jobs' });
      await waitFor(() => expect(add).toBeEnabled());

      postToHost({ source: 'presswork-editor', type: 'dirty', dirty: true }, EDITOR_ORIGIN, frameWindow);
      await user.click(add);
      expect(await screen.findByText(SAVE_EDITOR_FIRST_MESSAGE)).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/print-jobs')).toHaveLength(0);

      // The editor saves: no unsaved work, the design read again with its new artwork.
      current = design({ data: { artworkUrls: ['/files/a/new.png'] } });
      postToHost({ source: 'presswork-editor', type: 'dirty', dirty: false }, EDITOR_ORIGIN, frameWindow);
      postToHost({ source: 'presswork-editor', type: 'design-saved', designId: 5 }, EDITOR_ORIGIN, frameWindow);
      await waitFor(() => expect(designFetches(calls, 5)).toBe(2));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Add to print jobs' })).toBeEnabled());
      await user.click(screen.getByRole('button', { name: 'Add to print jobs' }));
      expect(await screen.findByText('Successfully added a print job')).toBeInTheDocument();
      const posted = calls.filter((c) => c.method === 'POST' && c.url === '/api/print-jobs');
      expect(posted).toHaveLength(1);
      expect(posted[0].body).toMatchObject({ artworkUrls: ['/files/a/new.png'] });
    });
  });

  describe('Save and Delete', () => {
    it('are disabled for a non-admin who did not create the design', async () => {
      signIn(USER); // id 2
      stubDesignApi(design({ createdByUserId: 9 }), USER);
      renderDesign('/design/5?t=info');
      expect(await screen.findByText(/Only an admin or the design's creator can change it/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    });

    it('are enabled for the creator', async () => {
      signIn(USER);
      stubDesignApi(design({ createdByUserId: 2 }), USER);
      renderDesign('/design/5?t=info');
      await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
      expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    });

    it('delete asks "Are you sure you want to delete?" and then deletes the design', async () => {
      signIn(ADMIN);
      const user = userEvent.setup();
      const { calls } = stubDesignApi(design({ createdByUserId: 9 }), ADMIN, {
        'DELETE /api/designs/5': () => ok(design()),
      });
      renderDesign('/design/5?t=info');
      await waitFor(() => expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled());
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Are you sure you want to delete?')).toBeInTheDocument();
      // Destructive: the confirm button looks it.
      expect(screen.getAllByRole('button', { name: 'Delete' }).at(-1)).toHaveClass('RaConfirm-confirmWarning');
      await user.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
      await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/designs/5')).toBe(true));
    });

    it('saves the edited info of an existing design', async () => {
      signIn(ADMIN);
      const user = userEvent.setup();
      const { calls } = stubDesignApi(design(), ADMIN, {
        'POST /api/designs': (call) => ok({ ...design(), ...(call.body as object), updatedAt: '2025-06-02T10:00:00.000Z' }),
      });
      renderDesign('/design/5?t=info');
      const sku = await screen.findByLabelText('SKU');
      await user.clear(sku);
      await user.type(sku, 'CARD-ROBIN-2');
      await user.type(screen.getByLabelText('Component code'), 'Card');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Save design successfully')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST' && c.url === '/api/designs')?.body).toMatchObject({
        id: 5,
        name: 'Robin card',
        sku: 'CARD-ROBIN-2',
        productType: 'Card',
        hpSKU: 'HP-A5-CARD',
        hpAdditionData: { attributes: [{ name: 'finish', value: 'matt' }], stockItems: [], componentCode: 'Card' },
      });
    });
  });
});
