// The bundled fonts (never a CDN): their @font-face rules, and waiting for the faces a document
// uses before drawing it on a canvas (a canvas does not redraw when a font arrives).
import '@fontsource/lora/400.css';
import '@fontsource/lora/700.css';
import '@fontsource/pacifico/400.css';
import '@fontsource/roboto-slab/400.css';
import '@fontsource/roboto-slab/700.css';
// Raleway 400–700 is loaded by the app itself (main.tsx).
import { fontString } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';

const loading = new Map<string, Promise<unknown>>();

/** Resolves once every font face the document's text layers use is loaded (or failed to). */
export async function ensureFonts(doc: DesignDocument): Promise<void> {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts?.load) return;
  const wanted = new Map<string, string>();
  for (const page of doc.pages) {
    for (const layer of page.layers) {
      if (layer.type !== 'text') continue;
      const spec = fontString(layer, 16);
      const text = (layer.field?.sample || layer.text || 'A').slice(0, 200);
      wanted.set(spec, (wanted.get(spec) ?? '') + text);
    }
  }
  await Promise.all(
    [...wanted].map(([spec, text]) => {
      const key = `${spec}|${text}`;
      let promise = loading.get(key);
      if (!promise) {
        promise = fonts.load(spec, text).catch(() => []);
        loading.set(key, promise);
      }
      return promise;
    }),
  );
}
