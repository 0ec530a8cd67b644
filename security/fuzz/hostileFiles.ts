// Hostile files: truncated and pixel-flood images, PDFs with scripts and actions (also hidden in
// object streams and behind #-escaped names), SVG/HTML with script, and files that lie about their type.
import zlib from 'node:zlib';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { PNG_SIGNATURE, chunk, ihdr } from '../../server/test/imageFixtures';

export interface HostileFile {
  name: string;
  bytes: Buffer;
  /** The type it claims to be (the upload link's and the data URL's type). */
  declared: 'image/png' | 'image/jpeg' | 'image/gif' | 'application/pdf' | 'text/csv' | 'application/json';
  /** What the refusal must say. */
  reason: RegExp;
}

function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

/** A PDF of one A5 page; `mutate` adds the hostile part. Saved with object streams (pdf-lib's default) so the catalog hides in one. */
async function pdf(mutate: (doc: PDFDocument) => void | Promise<void> = () => {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([419.53, 595.28]);
  await mutate(doc);
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

/** A hand-written PDF (no object streams) whose catalog runs JavaScript on open, the action's name #-escaped. */
function rawPdfWithEscapedJs(): Buffer {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /J#61vaScript /JS (app.alert\\(1\\)) >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface Fixtures {
  okPng: Buffer;
  okJpeg: Buffer;
  okPdf: Buffer;
  /** Refused everywhere a file or an artwork URL is accepted. */
  hostile: HostileFile[];
}

export async function fixtures(): Promise<Fixtures> {
  const raw = noise(96 * 96 * 3, 7);
  const okPng = await sharp(raw, { raw: { width: 96, height: 96, channels: 3 } }).png().toBuffer();
  const okJpeg = await sharp(raw, { raw: { width: 96, height: 96, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
  const okPdf = await pdf();

  // Pixel floods: a few hundred bytes that declare billions of pixels.
  const floodPng = Buffer.concat([PNG_SIGNATURE, ihdr(100_000, 100_000, 8, 2), chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))), chunk('IEND', Buffer.alloc(0))]);
  const floodJpeg = Buffer.from(okJpeg);
  const sof = floodJpeg.indexOf(Buffer.from([0xff, 0xc0]));
  floodJpeg.writeUInt16BE(65_000, sof + 5); // height
  floodJpeg.writeUInt16BE(65_000, sof + 7); // width
  const floodGif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0]), Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 2, 2, 0x4c, 1, 0, 0x3b])]);

  const jsOpenAction = await pdf((doc) => {
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
  });
  const jsPageAction = await pdf((doc) => {
    doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: doc.context.obj({ S: 'JavaScript', JS: PDFString.of('this.print()') }) }));
  });
  const launchAnnot = await pdf((doc) => {
    const action = doc.context.register(doc.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }));
    const annot = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 100, 100], A: action }));
    doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([annot]));
  });
  const namesJs = await pdf((doc) => {
    const js = doc.context.register(doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(2)') }));
    doc.catalog.set(PDFName.of('Names'), doc.context.obj({ JavaScript: doc.context.obj({ Names: [PDFString.of('a'), js] }) }));
  });
  const embedded = await pdf(async (doc) => {
    await doc.attach(Buffer.from('MZ fake executable'), 'invoice.exe', { mimeType: 'application/octet-stream' });
  });

  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script></svg>');
  const html = Buffer.from('<!doctype html><html><body><script>fetch("/api/users/me")</script></body></html>');

  const hostile: HostileFile[] = [
    { name: 'truncated PNG', bytes: okPng.subarray(0, Math.floor(okPng.length / 2)), declared: 'image/png', reason: /truncated/ },
    { name: 'truncated JPEG', bytes: okJpeg.subarray(0, Math.floor(okJpeg.length / 2)), declared: 'image/jpeg', reason: /truncated/ },
    { name: 'pixel-flood PNG (100000 × 100000)', bytes: floodPng, declared: 'image/png', reason: /too large/ },
    { name: 'pixel-flood JPEG (65000 × 65000)', bytes: floodJpeg, declared: 'image/jpeg', reason: /too large/ },
    { name: 'pixel-flood GIF (65535 × 65535)', bytes: floodGif, declared: 'image/gif', reason: /too large|pixel limit/ },
    { name: 'PDF with JavaScript OpenAction', bytes: jsOpenAction, declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF with JavaScript page action', bytes: jsPageAction, declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF with a Launch link', bytes: launchAnnot, declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF with document JavaScript', bytes: namesJs, declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF with an embedded file', bytes: embedded, declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF with #-escaped /JavaScript', bytes: rawPdfWithEscapedJs(), declared: 'application/pdf', reason: /active content/ },
    { name: 'PDF without a page tree', bytes: Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), declared: 'application/pdf', reason: /not a valid PDF|not a PDF/ },
    { name: 'SVG with script, declared PNG', bytes: svg, declared: 'image/png', reason: /not a valid image\/png|markup|not a PNG|must be a PNG/ },
    { name: 'SVG with script, declared JSON', bytes: svg, declared: 'application/json', reason: /markup/ },
    { name: 'HTML with script, declared CSV', bytes: html, declared: 'text/csv', reason: /markup/ },
    { name: 'PNG declared JPEG', bytes: okPng, declared: 'image/jpeg', reason: /not a valid image\/jpeg|JPEG/ },
    { name: 'PDF declared PNG', bytes: okPdf, declared: 'image/png', reason: /not a valid image\/png|PNG/ },
    { name: 'PNG declared PDF', bytes: okPng, declared: 'application/pdf', reason: /not a valid application\/pdf|not a PDF/ },
  ];
  return { okPng, okJpeg, okPdf, hostile };
}
