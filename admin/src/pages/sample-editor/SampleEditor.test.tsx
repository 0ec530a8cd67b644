import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AdminContext, defaultI18nProvider } from 'react-admin';
import { authProvider } from '../../providers/authProvider';
import { dataProvider } from '../../providers/dataProvider';
import { jsonResponse, LocationDisplay, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { SampleEditorEmbedPage } from './SampleEditorEmbedPage';
import { SampleEditorPage } from './SampleEditorPage';

const ORIGIN = window.location.origin;
const PING = { source: 'presswork-sample-embed', type: 'ping' };

function message(data: unknown, origin: string, source: Window | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

describe('Sample Editor (/sample-editor): the host side', () => {
  async function frame(sampleEditorUrl = '/sample-editor-embed') {
    signIn(USER, 'user-token');
    fakeFetch(router({ 'GET /api/app-config': () => ok({ editorUrl: '/editor', sampleEditorUrl }) }, USER));
    renderInAdmin(<SampleEditorPage />, { path: '/sample-editor', routePath: '/sample-editor' });
    const iframe = (await screen.findByTitle('Sample editor')) as HTMLIFrameElement;
    const frameWindow = iframe.contentWindow!;
    const postMessage = vi.spyOn(frameWindow, 'postMessage').mockImplementation(() => undefined);
    return { iframe, frameWindow, postMessage };
  }

  it('frames the sample editor embed and answers its ping with the token, to its exact origin only', async () => {
    const { iframe, frameWindow, postMessage } = await frame();
    expect(iframe.getAttribute('src')).toBe(`${ORIGIN}/sample-editor-embed`);
    expect(document.title).toBe('Sample Editor | Presswork');
    message(PING, ORIGIN, frameWindow);
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith({ source: 'presswork-host', type: 'token', token: 'user-token' }, ORIGIN);
  });

  it('ignores a ping from another origin, from another window or of another shape', async () => {
    const { frameWindow, postMessage } = await frame();
    message(PING, 'https://evil.example.com', frameWindow);
    message(PING, ORIGIN, window);
    message(PING, ORIGIN, null);
    message({ ...PING, source: 'presswork-editor' }, ORIGIN, frameWindow);
    message({ ...PING, type: 'token' }, ORIGIN, frameWindow);
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('answers an embed on another origin at that origin only', async () => {
    const { iframe, frameWindow, postMessage } = await frame('https://samples.example.com/embed');
    expect(iframe.getAttribute('src')).toBe('https://samples.example.com/embed');
    message(PING, ORIGIN, frameWindow);
    expect(postMessage).not.toHaveBeenCalled();
    message(PING, 'https://samples.example.com', frameWindow);
    expect(postMessage).toHaveBeenCalledWith({ source: 'presswork-host', type: 'token', token: 'user-token' }, 'https://samples.example.com');
  });

  it('sends a signed-out visitor to the login page with a redirect back', async () => {
    fakeFetch(router({}, USER));
    window.history.pushState({}, '', '/sample-editor');
    try {
      render(
        <MemoryRouter initialEntries={['/sample-editor']}>
          <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={defaultI18nProvider}>
            <Routes>
              <Route path="/sample-editor" element={<SampleEditorPage />} />
              <Route path="/login" element={<LocationDisplay />} />
            </Routes>
          </AdminContext>
        </MemoryRouter>,
      );
      expect(await screen.findByTestId('location')).toHaveTextContent(`/login?redirect=${encodeURIComponent('/sample-editor')}`);
    } finally {
      window.history.pushState({}, '', '/');
    }
  });
});

describe('Sample editor embed (/sample-editor-embed)', () => {
  let iframe: HTMLIFrameElement;
  let parentWindow: Window;
  let toParent: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    iframe = document.createElement('iframe');
    document.body.appendChild(iframe);
    parentWindow = iframe.contentWindow!;
    toParent = vi.fn();
    vi.spyOn(parentWindow, 'postMessage').mockImplementation(toParent as never);
    Object.defineProperty(window, 'parent', { configurable: true, writable: true, value: parentWindow });
  });

  afterEach(() => {
    Object.defineProperty(window, 'parent', { configurable: true, writable: true, value: window });
    iframe.remove();
  });

  const TOKEN = { source: 'presswork-host', type: 'token', token: 'user-token' };

  it('pings its parent at its own origin when ready', () => {
    fakeFetch(() => jsonResponse({ success: true, data: USER }));
    render(<SampleEditorEmbedPage />);
    expect(toParent.mock.calls).toEqual([[PING, ORIGIN]]);
    expect(screen.getByRole('status')).toHaveTextContent('Signing in…');
  });

  it('takes the token only from its parent at its own origin, then greets the user and opens the sample card', async () => {
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: { ...USER, firstName: 'Uma' } }));
    render(<SampleEditorEmbedPage />);
    message(TOKEN, 'https://evil.example.com', parentWindow);
    message(TOKEN, ORIGIN, window);
    message(TOKEN, ORIGIN, null);
    message({ ...TOKEN, source: 'presswork-editor' }, ORIGIN, parentWindow);
    message({ ...TOKEN, token: 42 }, ORIGIN, parentWindow);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(0);

    message(TOKEN, ORIGIN, parentWindow);
    expect(await screen.findByText('Hello, Uma')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/users/me');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer user-token');
    // The sample card: four pages, a personalisation field, nothing to save.
    expect(await screen.findByRole('toolbar', { name: 'Editor tools' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab')).toHaveLength(4);
    expect(screen.getByLabelText('Layer Recipient name')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByText('Sample: not saved')).toBeInTheDocument();
  });

  it('says so when the token is refused', async () => {
    fakeFetch(() => jsonResponse({ success: false, error: 'Your session has expired' }, 401));
    render(<SampleEditorEmbedPage />);
    message(TOKEN, ORIGIN, parentWindow);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You could not be signed in: Your session has expired'));
  });
});
