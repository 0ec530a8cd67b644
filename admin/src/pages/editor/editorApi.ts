// The editor's calls, signed with the token the host sent in `init` (not the stored session).
import type { Id } from '../../../../common/api/envelope';
import type { Design } from '../../../../common/api/printProduction';
import type { PpiThresholds } from '../../../../common/design-doc/resolution';
import { api, uploadedFileUrl } from '../../providers/api';

/** The design as GET /api/designs/:id answers it: with its site's resolution rule (absent from older servers). */
export type EditorDesign = Design & { ppiThresholds?: PpiThresholds };

export interface EditorApi {
  getDesign(id: Id): Promise<EditorDesign>;
  /** POST /api/designs: the design's data keys sent are replaced, others kept (server merges). */
  saveDesign(input: { id: Id; data?: Record<string, unknown>; image?: string }): Promise<Design>;
  /** The signed upload URL flow: returns the stored file's /files/… address. */
  upload(blob: Blob, serverSidePath: string, contentType: 'image/png' | 'image/jpeg'): Promise<string>;
}

export function editorApi(apiBase: string, token: string): EditorApi {
  const at = (path: string) => `${apiBase}${path}`;
  return {
    getDesign: (id) => api<EditorDesign>(at(`/api/designs/${encodeURIComponent(String(id))}`), { token }),
    saveDesign: (input) => api<Design>(at('/api/designs'), { method: 'POST', body: input, token }),
    async upload(blob, serverSidePath, contentType) {
      let fileUrl: string | null = null;
      const signedUrl = await api<string>(at('/api/users/me/get-upload-url'), {
        method: 'POST',
        body: { serverSidePath, contentType, contentLength: blob.size },
        token,
        onHeaders: (h) => (fileUrl = h.get('X-File-Url')),
      });
      const res = await fetch(signedUrl, { method: 'PUT', body: blob, headers: { 'Content-Type': contentType } });
      return uploadedFileUrl(res, fileUrl);
    },
  };
}
