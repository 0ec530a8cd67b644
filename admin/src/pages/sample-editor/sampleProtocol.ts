// The sample editor's frame exchange (spec §2): the embed pings its parent when ready; the parent
// answers with the sign-in token, only to the embed's exact origin and only when the ping came
// from its own frame; the embed accepts the token only from window.parent at an allowed origin.
import { HOST_SOURCE } from '../design/editorFrameProtocol';

export const SAMPLE_EMBED_SOURCE = 'presswork-sample-embed';

export interface PingMessage {
  source: typeof SAMPLE_EMBED_SOURCE;
  type: 'ping';
}

export interface TokenMessage {
  source: typeof HOST_SOURCE;
  type: 'token';
  token: string;
}

export const pingMessage = (): PingMessage => ({ source: SAMPLE_EMBED_SOURCE, type: 'ping' });
export const tokenMessage = (token: string): TokenMessage => ({ source: HOST_SOURCE, type: 'token', token });

/** Where the sample editor frame lives (app-config sampleEditorUrl, default same origin); null unless http(s). */
export function sampleFrameTarget(url: string, pageOrigin: string): { src: string; origin: string } | null {
  try {
    const resolved = new URL(url, pageOrigin);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return null;
    return { src: resolved.toString(), origin: resolved.origin };
  } catch {
    return null;
  }
}

/** Host side: true for a ping from our frame's window at the frame's origin. */
export function isPingFromFrame(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  frame: { origin: string; window: Window | null | undefined },
): boolean {
  if (!frame.window || event.source !== frame.window || event.origin !== frame.origin) return false;
  const data = event.data as Record<string, unknown> | null;
  return Boolean(data && typeof data === 'object' && data.source === SAMPLE_EMBED_SOURCE && data.type === 'ping');
}

/** Embed side: the token when the message comes from `parent` at an allowed origin; else null. */
export function readTokenMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  parent: Window | null,
  allowed: readonly string[],
): string | null {
  if (!parent || event.source !== parent || !allowed.includes(event.origin)) return null;
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || data.source !== HOST_SOURCE || data.type !== 'token') return null;
  return typeof data.token === 'string' && data.token ? data.token : null;
}
