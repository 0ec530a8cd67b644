// Unsaved editor work is kept in sessionStorage while it is unsaved, so a reloaded or remounted
// editor frame (a resize, a crash, a closed tab restored) offers it back instead of losing it.
import type { DesignDocument } from '../../../../common/design-doc/types';
import { validateDocument } from '../../../../common/design-doc/validate';

const key = (designId: string | number) => `presswork-editor-draft-${designId}`;

interface Draft {
  doc: DesignDocument;
  /** The design's updatedAt the draft started from: a draft of an older version is not offered. */
  base: string | null;
}

export function saveDraft(designId: string | number, base: string | null | undefined, doc: DesignDocument): void {
  try {
    sessionStorage.setItem(key(designId), JSON.stringify({ doc, base: base ?? null } satisfies Draft));
  } catch {
    // Storage full or off: the draft is only a safety net.
  }
}

export function clearDraft(designId: string | number): void {
  try {
    sessionStorage.removeItem(key(designId));
  } catch {
    // nothing to clear
  }
}

/** The unsaved document of this design, if one was left from the same saved version and is valid. */
export function readDraft(designId: string | number, base: string | null | undefined): DesignDocument | null {
  try {
    const raw = sessionStorage.getItem(key(designId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Draft;
    if (draft.base !== (base ?? null)) return null;
    const checked = validateDocument(draft.doc);
    return checked.ok ? checked.doc : null;
  } catch {
    return null;
  }
}
