import { useEffect, useRef, type RefObject } from 'react';
import type { Id } from '../../../../common/api/envelope';
import { getToken } from '../../providers/session';
import { initMessage, isSameDesign, readEditorMessage } from './editorFrameProtocol';

export interface EditorFrameHandlers {
  /** Unsaved work in the editor (the host asks before leaving for Design Info). */
  onDirtyChange: (dirty: boolean) => void;
  /** The editor saved this design: reload it. */
  onDesignSaved: () => void;
}

/**
 * Listens to the framed editor: answers `ready` with `init` (the signed-in user's token) posted to
 * the editor's exact origin, tracks `dirty`, and reports `design-saved` for this design only.
 */
export function useEditorFrame(
  frameRef: RefObject<HTMLIFrameElement | null>,
  editorOrigin: string | null,
  designId: Id,
  handlers: EditorFrameHandlers,
): void {
  // The latest handlers, without re-subscribing on every render.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!editorOrigin) return;
    const onMessage = (event: MessageEvent) => {
      const frameWindow = frameRef.current?.contentWindow;
      const message = readEditorMessage(event, { origin: editorOrigin, window: frameWindow });
      if (!message || !frameWindow) return;
      if (message.type === 'ready') {
        const token = getToken();
        if (token) frameWindow.postMessage(initMessage(token, designId, window.location.origin), editorOrigin);
      } else if (message.type === 'dirty') {
        latest.current.onDirtyChange(message.dirty);
      } else if (isSameDesign(message.designId, designId)) {
        latest.current.onDesignSaved();
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frameRef, editorOrigin, designId]);
}
