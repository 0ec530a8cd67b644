import type { Id } from '../../../../common/api/envelope';
// Host side of the editor frame protocol (docs/print-production.md, "The editor frame protocol").
// Every message is `{source, type, ...}`; the host answers only its own frame, at the editor's exact origin.

export const EDITOR_SOURCE = 'presswork-editor';
export const HOST_SOURCE = 'presswork-host';

export type EditorMessage =
  | { source: typeof EDITOR_SOURCE; type: 'ready' }
  | { source: typeof EDITOR_SOURCE; type: 'dirty'; dirty: boolean }
  | { source: typeof EDITOR_SOURCE; type: 'design-saved'; designId: Id };

export interface InitMessage {
  source: typeof HOST_SOURCE;
  type: 'init';
  token: string;
  designId: Id;
  apiBase: string;
}

export interface EditorFrameTarget {
  /** The frame's address: the editor URL with `?designId=<id>`. */
  src: string;
  /** The only origin whose messages are accepted and to which `init` is posted. */
  origin: string;
}

/**
 * Resolves the configured editor URL (default "/editor", same origin) against the page.
 * Returns null for anything but an http(s) address, so a bad setting never frames `javascript:` etc.
 */
export function editorFrameTarget(
  editorUrl: string,
  designId: Id,
  pageOrigin: string,
  extraParams: Record<string, string> = {},
): EditorFrameTarget | null {
  let url: URL;
  try {
    url = new URL(editorUrl, pageOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.searchParams.set('designId', String(designId));
  for (const [key, value] of Object.entries(extraParams)) url.searchParams.set(key, value);
  return { src: url.toString(), origin: url.origin };
}

/** The editor's message when it comes from our frame at the editor's origin and has a known shape; else null. */
export function readEditorMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  frame: { origin: string; window: Window | null | undefined },
): EditorMessage | null {
  if (!frame.window || event.source !== frame.window) return null;
  if (event.origin !== frame.origin) return null;
  const data: unknown = event.data;
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  if (message.source !== EDITOR_SOURCE) return null;
  switch (message.type) {
    case 'ready':
      return { source: EDITOR_SOURCE, type: 'ready' };
    case 'dirty':
      return typeof message.dirty === 'boolean' ? { source: EDITOR_SOURCE, type: 'dirty', dirty: message.dirty } : null;
    case 'design-saved':
      return typeof message.designId === 'string' || typeof message.designId === 'number'
        ? { source: EDITOR_SOURCE, type: 'design-saved', designId: message.designId }
        : null;
    default:
      return null;
  }
}

export function initMessage(token: string, designId: Id, apiBase: string): InitMessage {
  return { source: HOST_SOURCE, type: 'init', token, designId, apiBase };
}

export function isSameDesign(a: Id, b: Id): boolean {
  return String(a) === String(b);
}
