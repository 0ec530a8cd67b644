// Realistic 300 dpi A5 artwork for the benchmarks: gradients, photographic grain, shapes and
// text-like strokes, so PNG and JPEG compression behave as on real card designs.
import sharp from 'sharp';

export const PAGE = { width: 1748, height: 2480 }; // 148 × 210 mm at 300 dpi

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

export function artworkPixels(seed: number, width = PAGE.width, height = PAGE.height): Buffer {
  const rand = rng(seed);
  const px = Buffer.alloc(width * height * 3);
  const hue = rand() * 255;
  // Background: two-axis gradient with soft grain (as in photos and paper textures).
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const grain = (rand() - 0.5) * 10;
      px[o] = Math.max(0, Math.min(255, (hue + (x / width) * 120 + grain) % 256));
      px[o + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 150 + grain));
      px[o + 2] = Math.max(0, Math.min(255, 200 - ((x + y) / (width + height)) * 140 + grain));
    }
  }
  const fill = (x0: number, y0: number, w: number, h: number, c: number[], inside: (x: number, y: number) => boolean) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) {
        if (!inside(x - x0, y - y0)) continue;
        const o = (y * width + x) * 3;
        px[o] = c[0];
        px[o + 1] = c[1];
        px[o + 2] = c[2];
      }
  };
  // Flat shapes: circles and panels (logos, frames).
  for (let i = 0; i < 12; i++) {
    const r = 60 + rand() * 260;
    const cx = rand() * width;
    const cy = rand() * height;
    const c = [rand() * 255, rand() * 255, rand() * 255].map(Math.floor);
    fill(Math.floor(cx - r), Math.floor(cy - r), Math.ceil(2 * r), Math.ceil(2 * r), c, (x, y) => (x - r) ** 2 + (y - r) ** 2 < r * r);
  }
  fill(120, Math.floor(height * 0.72), width - 240, 420, [250, 248, 240], () => true);
  // Text-like strokes: rows of short dark bars on the panel.
  for (let line = 0; line < 6; line++) {
    let x = 160;
    const y = Math.floor(height * 0.72) + 40 + line * 62;
    while (x < width - 200) {
      const w = 8 + Math.floor(rand() * 40);
      fill(x, y, w, 34, [30, 30, 40], (_, yy) => yy > 4 || rand() > 0.3);
      x += w + 6 + Math.floor(rand() * 14);
    }
  }
  return px;
}

export async function artworkPages(count = 4): Promise<{ png: Buffer[]; jpeg: Buffer[] }> {
  const png: Buffer[] = [];
  const jpeg: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const raw = artworkPixels(1000 + i);
    const img = () => sharp(raw, { raw: { width: PAGE.width, height: PAGE.height, channels: 3 } }).withMetadata({ density: 300 });
    // Design tools write adaptive-filtered PNGs (libpng's default); quality-90 JPEGs.
    png.push(await img().png({ adaptiveFiltering: true, compressionLevel: 6 }).toBuffer());
    jpeg.push(await img().jpeg({ quality: 90 }).toBuffer());
  }
  return { png, jpeg };
}
