import { createRef } from 'react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { addLayer, createImageLayer, newDocument } from '../../../../common/design-doc/model';
import type { DesignDocument, ImageLayer } from '../../../../common/design-doc/types';
import { PropertiesPanel } from './PropertiesPanel';

// A test worker runs several files with one module cache: the editor an earlier file loaded uses
// the real renderPages. Load the modules afresh for this file, so the mock below applies, and
// afresh again after it, so no later file gets the mock.
vi.hoisted(() => vi.resetModules());
afterAll(() => {
  vi.doUnmock('./renderPages');
  vi.resetModules();
});

// jsdom loads no pictures: the editor's image loader answers with the pixel sizes a browser would.
const PIXELS: Record<string, [number, number]> = {
  '/files/small.jpg': [600, 400],
  '/files/large.jpg': [2400, 1600],
};
vi.mock('./renderPages', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./renderPages')>();
  return {
    ...actual,
    loadImage: vi.fn(async (src: string) => {
      const size = PIXELS[src];
      if (!size) throw new Error(`The image ${src} could not be loaded`);
      return { naturalWidth: size[0], naturalHeight: size[1] } as HTMLImageElement;
    }),
  };
});

function docWith(src: string, widthMm: number, heightMm: number): { doc: DesignDocument; layer: ImageLayer } {
  const layer = createImageLayer('card-a5', src, { name: 'Photo', x: 0, y: 0, width: widthMm, height: heightMm });
  return { doc: addLayer(newDocument('card-a5'), 0, layer), layer };
}

function panel(doc: DesignDocument, layer: ImageLayer) {
  return (
    <PropertiesPanel
      doc={doc}
      pageIndex={0}
      selected={layer}
      onSelect={() => undefined}
      apply={() => undefined}
      commit={() => undefined}
      pickImage={async () => null}
      textInputRef={createRef()}
    />
  );
}

describe('Editor: the selected photo’s resolution at its printed size', () => {
  it('shows the error for a small photo placed big', async () => {
    // 600 px across 148 mm (5.83 in) = 103.0 ppi.
    const { doc, layer } = docWith('/files/small.jpg', 148, 98.67);
    render(panel(doc, layer));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Page 1 photo “Photo” is 103 ppi at its printed size — it will look soft');
    expect(status).toHaveClass('MuiAlert-colorError');
  });

  it('shows no warning for a large photo, and the ppi it prints at', async () => {
    // 2400 px across 148 mm = 411.9 ppi.
    const { doc, layer } = docWith('/files/large.jpg', 148, 98.67);
    render(panel(doc, layer));
    expect(await screen.findByRole('status')).toHaveTextContent('412 ppi at its printed size: sharp');
    expect(screen.queryByText(/look soft|prints sharp/)).not.toBeInTheDocument();
  });

  it('follows the photo as it is scaled: sharp, then a warning, then an error', async () => {
    const small = docWith('/files/small.jpg', 50.8, 33.87);
    const { rerender } = render(panel(small.doc, small.layer));
    // 600 px over 2 in = 300 ppi.
    expect(await screen.findByRole('status')).toHaveTextContent('300 ppi at its printed size: sharp');

    const scaled = { ...small.layer, width: 76.2, height: 50.8 }; // 3 in: 200 ppi
    rerender(panel(addLayer(newDocument('card-a5'), 0, scaled), scaled));
    expect(screen.getByRole('status')).toHaveTextContent('Page 1 photo “Photo” is 200 ppi at its printed size — 250 ppi or more prints sharp');
    expect(screen.getByRole('status')).toHaveClass('MuiAlert-colorWarning');

    const bigger = { ...small.layer, width: 127, height: 84.67 }; // 5 in: 120 ppi
    rerender(panel(addLayer(newDocument('card-a5'), 0, bigger), bigger));
    expect(screen.getByRole('status')).toHaveTextContent('is 120 ppi at its printed size — it will look soft');
  });

  it('says nothing when the photo cannot be loaded', async () => {
    const { doc, layer } = docWith('/files/missing.jpg', 148, 98.67);
    render(panel(doc, layer));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
