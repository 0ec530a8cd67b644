// The built-in sample card the sample editor opens (never saved to the server).
import { addLayer, createRectLayer, createTextLayer, markField, newDocument } from '../../../../common/design-doc/model';
import { formatSpec } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';

export function sampleCardDocument(): DesignDocument {
  const format = 'card-a5';
  let doc = newDocument(format);
  const { width, height, bleed } = formatSpec(doc);
  doc = { ...doc, pages: doc.pages.map((p, i) => (i === 0 ? { ...p, background: '#fde4ec' } : p)) };
  // Front: a band reaching into the bleed, a greeting and the recipient's name (a personalisation field).
  doc = addLayer(doc, 0, createRectLayer(format, { id: 'sample-band', name: 'Band', x: -bleed, y: 128, width: width + 2 * bleed, height: 46, fill: '#e91e63' }));
  doc = addLayer(
    doc,
    0,
    createTextLayer(format, { id: 'sample-greeting', name: 'Greeting', text: 'Happy Birthday', fontFamily: 'Pacifico', fontSize: 40, color: '#ad1457', x: 14, y: 52, width: width - 28, height: 44 }),
  );
  doc = addLayer(
    doc,
    0,
    createTextLayer(format, { id: 'sample-name', name: 'Recipient name', text: 'Dear Sam', fontFamily: 'Raleway', fontWeight: 700, fontSize: 28, color: '#ffffff', x: 14, y: 138, width: width - 28, height: 26 }),
  );
  doc = markField(doc, 0, 'sample-name', { property: 'Recipient name', sample: 'Dear Sam', maxLength: 30, fit: 'shrink' });
  // Inside right: the message.
  doc = addLayer(
    doc,
    2,
    createTextLayer(format, {
      id: 'sample-message',
      name: 'Message',
      text: 'Wishing you a wonderful day\nand a year full of good things.',
      fontFamily: 'Lora',
      fontSize: 16,
      lineHeight: 1.5,
      color: '#333333',
      x: 14,
      y: 80,
      width: width - 28,
      height: 40,
    }),
  );
  doc = markField(doc, 2, 'sample-message', { property: 'Message', maxLength: 200, fit: 'shrink' });
  // Back: a small maker's mark.
  doc = addLayer(
    doc,
    3,
    createTextLayer(format, { id: 'sample-mark', name: 'Maker', text: 'Made with Presswork', fontFamily: 'Roboto Slab', fontSize: 9, color: '#888888', x: 24, y: height - 24, width: width - 48, height: 6 }),
  );
  return doc;
}
