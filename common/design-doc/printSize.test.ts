import { describe, expect, it } from 'vitest';
import { artworkFit, pageImagePpi, printSizeOf } from './printSize';

describe('printSizeOf', () => {
  it('takes the document format and its own bleed, else the product type, else A5', () => {
    expect(printSizeOf('Card', { format: 'card-a5' })).toEqual({ trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 });
    expect(printSizeOf('Card', { format: 'card-a5', bleed: 5 })).toEqual({ trimWidthMm: 148, trimHeightMm: 210, bleedMm: 5 });
    expect(printSizeOf('Mug')).toEqual({ trimWidthMm: 200, trimHeightMm: 90, bleedMm: 2 });
    expect(printSizeOf('Poster', { format: 'poster-a2' })).toEqual({ trimWidthMm: 420, trimHeightMm: 594, bleedMm: 3 });
    expect(printSizeOf(null)).toEqual({ trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 });
  });
});

describe('artworkFit and pageImagePpi', () => {
  const a5 = printSizeOf('Card');
  it('tells bleed, trim and other shapes apart', () => {
    expect(artworkFit(1819, 2551, a5)).toBe('bleed'); // 154 × 216 mm at 300 dpi
    expect(artworkFit(1748, 2480, a5)).toBe('trim'); // 148 × 210 mm at 300 dpi
    expect(artworkFit(2000, 2000, a5)).toBe('mismatch');
    expect(artworkFit(0, 10, a5)).toBe('mismatch');
  });
  it('gives the page image its printed resolution', () => {
    expect(pageImagePpi(1819, 2551, a5)).toBeCloseTo(300, 0);
    expect(pageImagePpi(874, 1240, a5)).toBeCloseTo(150, 0);
    expect(pageImagePpi(1000, 1000, a5)).toBeCloseTo((1000 / 210) * 25.4, 3); // inside the trim: the height limits it
  });
});
