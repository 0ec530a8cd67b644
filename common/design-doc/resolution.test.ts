import { describe, expect, it } from 'vitest';
import { DEFAULT_PPI_THRESHOLDS, effectivePpi, resolutionFinding } from './resolution';

describe('effectivePpi', () => {
  it('is the pixels per inch across the printed width', () => {
    // A5 at 300 ppi: 148 mm = 5.827 in, 1748 px.
    expect(effectivePpi({ pixelWidth: 1748, pixelHeight: 2480 }, { widthMm: 148, heightMm: 210 })).toBeCloseTo(300, 0);
    // 2 in × 1 in at 600 × 300 px: exactly 300 ppi.
    expect(effectivePpi({ pixelWidth: 600, pixelHeight: 300 }, { widthMm: 50.8, heightMm: 25.4 })).toBeCloseTo(300, 9);
  });

  it('halves when the same photo is printed twice as big', () => {
    const image = { pixelWidth: 1200, pixelHeight: 800 };
    const small = effectivePpi(image, { widthMm: 101.6, heightMm: 67.7333 });
    const big = effectivePpi(image, { widthMm: 203.2, heightMm: 135.4667 });
    expect(small).toBeCloseTo(300, 2);
    expect(big).toBeCloseTo(150, 2);
  });

  it('counts only the pixels left after cover crops the photo', () => {
    // A 3000 × 1000 px panorama covering a 2 in square box: its height sets the scale (1000 px over
    // 2 in = 500 ppi); the sides beyond the box are cropped away and do not add resolution.
    expect(effectivePpi({ pixelWidth: 3000, pixelHeight: 1000 }, { widthMm: 50.8, heightMm: 50.8 }, 'cover')).toBeCloseTo(500, 9);
    // Cover is the default placement.
    expect(effectivePpi({ pixelWidth: 3000, pixelHeight: 1000 }, { widthMm: 50.8, heightMm: 50.8 })).toBeCloseTo(500, 9);
  });

  it('uses the whole photo, shrunk to fit, with contain', () => {
    // The same panorama contained: 3000 px across the 2 in box's width = 1500 ppi (letterboxed).
    expect(effectivePpi({ pixelWidth: 3000, pixelHeight: 1000 }, { widthMm: 50.8, heightMm: 50.8 }, 'contain')).toBeCloseTo(1500, 9);
    // A tall photo in a wide box: its height limits it. 400 px over 1 in = 400 ppi.
    expect(effectivePpi({ pixelWidth: 400, pixelHeight: 400 }, { widthMm: 101.6, heightMm: 25.4 }, 'contain')).toBeCloseTo(400, 9);
  });

  it('is 0 for an image or box with no size', () => {
    expect(effectivePpi({ pixelWidth: 0, pixelHeight: 100 }, { widthMm: 10, heightMm: 10 })).toBe(0);
    expect(effectivePpi({ pixelWidth: 100, pixelHeight: 100 }, { widthMm: 0, heightMm: 10 })).toBe(0);
  });
});

describe('resolutionFinding', () => {
  const page = { index: 0, name: 'Front' };

  it('says nothing at or above the warning threshold', () => {
    expect(resolutionFinding(250)).toBeUndefined();
    expect(resolutionFinding(300, DEFAULT_PPI_THRESHOLDS, page, 'Photo')).toBeUndefined();
  });

  it('warns from just below the warning threshold down to the error threshold itself', () => {
    expect(resolutionFinding(249.99)?.severity).toBe('warning');
    expect(resolutionFinding(150)?.severity).toBe('warning');
  });

  it('is an error below the error threshold', () => {
    expect(resolutionFinding(149.9)?.severity).toBe('error');
    expect(resolutionFinding(20)?.severity).toBe('error');
  });

  it('names the page and the layer in plain words', () => {
    expect(resolutionFinding(141.6, DEFAULT_PPI_THRESHOLDS, page, 'Photo')).toEqual({
      severity: 'error',
      code: 'low-resolution',
      message: 'Page 1 photo “Photo” is 142 ppi at its printed size — it will look soft',
      page: 1,
    });
    expect(resolutionFinding(200, DEFAULT_PPI_THRESHOLDS, { index: 2, name: 'Inside right' }, 'Balloons')).toEqual({
      severity: 'warning',
      code: 'low-resolution',
      message: 'Page 3 photo “Balloons” is 200 ppi at its printed size — 250 ppi or more prints sharp',
      page: 3,
    });
    expect(resolutionFinding(100)?.message).toBe('The photo is 100 ppi at its printed size — it will look soft');
    expect(resolutionFinding(100)?.page).toBeNull();
  });

  it("follows a site's own thresholds", () => {
    const strict = { warning: 300, error: 200 };
    expect(resolutionFinding(280, strict)?.severity).toBe('warning');
    expect(resolutionFinding(280, strict)?.message).toContain('300 ppi or more prints sharp');
    expect(resolutionFinding(180, strict)?.severity).toBe('error');
    expect(resolutionFinding(300, strict)).toBeUndefined();
  });

  it('rounds, but never up to the threshold the photo fell below', () => {
    expect(resolutionFinding(149.9)?.message).toContain('is 149 ppi');
    expect(resolutionFinding(249.7)?.message).toContain('is 249 ppi');
    expect(resolutionFinding(199.6)?.message).toContain('is 200 ppi');
  });
});
