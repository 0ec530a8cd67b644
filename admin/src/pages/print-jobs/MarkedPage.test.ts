import { describe, expect, it } from 'vitest';
import { areaOnPicture } from './MarkedPage';

describe('areaOnPicture', () => {
  const area = { x: 0, y: 0, width: 1, height: 1 };
  it('moves a trim-box area in by the bleed on a card page that carries it', () => {
    const on = areaOnPicture(area, { width: 1819, height: 2551 }, 'Card');
    expect(on.x).toBeCloseTo(3 / 154, 6);
    expect(on.y).toBeCloseTo(3 / 216, 6);
    expect(on.width).toBeCloseTo(148 / 154, 6);
    expect(on.height).toBeCloseTo(210 / 216, 6);
  });
  it('leaves it on a page without bleed, or before the picture is known', () => {
    expect(areaOnPicture(area, { width: 1748, height: 2480 }, 'Card')).toEqual(area);
    expect(areaOnPicture(area, null, 'Card')).toEqual(area);
  });
});
