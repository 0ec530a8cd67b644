// The bundled fonts (npm @fontsource/*), registered with Skia from disk. Never fetched from a CDN:
// a font file missing on disk is a startup error (assertBundledFonts runs when the services are built).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BUNDLED_FONTS } from '../../../../common/design-doc/types';

type Family = (typeof BUNDLED_FONTS)[number];

const PACKAGES: Record<Family, { pkg: string; weights: number[] }> = {
  Raleway: { pkg: 'raleway', weights: [400, 700] },
  Lora: { pkg: 'lora', weights: [400, 700] },
  // Pacifico has one weight; 700 is drawn with it.
  Pacifico: { pkg: 'pacifico', weights: [400] },
  'Roboto Slab': { pkg: 'roboto-slab', weights: [400, 700] },
};
/** Unicode subsets registered per weight (Latin first: it wins where both have a glyph). */
const SUBSETS = ['latin', 'latin-ext'];

const require = createRequire(import.meta.url);

export interface FontFile {
  family: Family;
  weight: number;
  file: string;
}

/** Every font file the renderer registers (woff2, which Skia reads directly). */
export function bundledFontFiles(): FontFile[] {
  const out: FontFile[] = [];
  for (const family of BUNDLED_FONTS) {
    const { pkg, weights } = PACKAGES[family];
    let dir: string;
    try {
      dir = path.join(path.dirname(require.resolve(`@fontsource/${pkg}/package.json`)), 'files');
    } catch {
      throw new Error(`Bundled font package @fontsource/${pkg} is not installed (run npm install)`);
    }
    for (const weight of weights) for (const subset of SUBSETS) out.push({ family, weight, file: path.join(dir, `${pkg}-${subset}-${weight}-normal.woff2`) });
  }
  return out;
}

/** Throws when a bundled font file is missing on disk. */
export function assertBundledFonts(): FontFile[] {
  const files = bundledFontFiles();
  const missing = files.filter((f) => !fs.existsSync(f.file));
  if (missing.length) throw new Error(`Bundled font files are missing: ${missing.map((f) => f.file).join(', ')}`);
  return files;
}

let registered = false;

/** Registers the bundled fonts with @napi-rs/canvas (once per thread). */
export async function registerBundledFonts(): Promise<void> {
  if (registered) return;
  const { GlobalFonts } = await import('@napi-rs/canvas');
  for (const f of assertBundledFonts()) {
    if (!GlobalFonts.registerFromPath(f.file, f.family)) throw new Error(`Bundled font could not be loaded: ${f.file}`);
  }
  registered = true;
}
