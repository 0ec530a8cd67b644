// Many PDFs written as one, document by document, straight to a sink (a file on disk): each
// source's pages and what they use are copied with fresh object numbers and written out, then let
// go. Memory holds one source at a time, whatever the number of documents; pdf-lib alone would keep
// every copied page of the whole result in memory until it saves. The page order is decided at the
// end (the page tree is written last), so a page written late can still come first.
import fs from 'node:fs/promises';
import { PDFContext, PDFDocument, PDFHexString, PDFName, PDFObjectCopier, PDFRef, PDFString, type PDFObject } from 'pdf-lib';
import { PRODUCER, printFileXmp, type ColourSetup, type PrintFileIdentity } from './tasks';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

function objectBytes(ref: PDFRef, object: PDFObject): Buffer {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return Buffer.concat([latin1(`${ref.objectNumber} ${ref.generationNumber} obj\n`), body, latin1('\nendobj\n')]);
}

/** A PDF being written page by page; `finish` writes the page tree in the order given. */
export interface PdfPageWriter {
  /** Writes the document's pages and what they use; answers the pages, in the document's order. */
  copyPages(source: PDFDocument): Promise<PDFRef[]>;
  /** A page with nothing on it (a duplex sheet's blank back). */
  blankPage(widthPt: number, heightPt: number): Promise<PDFRef>;
  /** The page tree (these pages, in this order), the catalog and the cross-reference table. */
  finish(pages: PDFRef[], opts: { title: string }): Promise<void>;
}

/** What makes the written file PDF/X-4: its output intent (colourSetupOf, as the print files') and its identity (dates, ID). */
export interface PdfxOutput {
  colour: ColourSetup;
  identity: PrintFileIdentity;
}

/**
 * A PDF written page by page. With `pdfx`, the file is PDF/X-4 as the print files are (tasks.ts):
 * PDF 1.6, the output intent with its embedded profile, the XMP naming the version, Trapped and an
 * ID; every page must carry its own TrimBox and BleedBox and embed its fonts (the caller's part).
 */
export function pdfPageWriter(write: (bytes: Uint8Array) => Promise<void>, pdfx?: PdfxOutput): PdfPageWriter {
  // Reserved: the page tree, the catalog and the info dictionary are written last, with known numbers.
  const PAGES = PDFRef.of(1);
  const CATALOG = PDFRef.of(2);
  const INFO = PDFRef.of(3);
  let position = 0;
  const offsets: number[] = [];
  let largest = INFO.objectNumber;
  let started = false;
  const put = async (bytes: Uint8Array) => {
    await write(bytes);
    position += bytes.length;
  };
  const putObject = async (ref: PDFRef, object: PDFObject) => {
    offsets[ref.objectNumber] = position;
    await put(objectBytes(ref, object));
  };
  const start = async () => {
    if (started) return;
    started = true;
    await put(Buffer.concat([latin1(pdfx ? '%PDF-1.6\n%' : '%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), latin1('\n')]));
  };
  /** A context of one source's copies only, numbered after everything written so far. */
  const copiesContext = () => {
    const copies = PDFContext.create();
    copies.largestObjectNumber = largest;
    return copies;
  };
  const writeCopies = async (copies: PDFContext) => {
    for (const [ref, object] of copies.enumerateIndirectObjects()) await putObject(ref, object);
    largest = copies.largestObjectNumber;
  };

  return {
    async copyPages(source) {
      await start();
      // Fonts, images and embedded pages a document made here still holds unwritten.
      await source.flush();
      const copies = copiesContext();
      const copier = PDFObjectCopier.for(source.context, copies);
      const refs: PDFRef[] = [];
      for (const page of source.getPages()) {
        const copied = copier.copy(page.node);
        copied.set(PDFName.of('Parent'), PAGES);
        refs.push(copies.register(copied));
      }
      await writeCopies(copies);
      return refs;
    },
    async blankPage(widthPt, heightPt) {
      await start();
      const copies = copiesContext();
      const box = [0, 0, widthPt, heightPt];
      const ref = copies.register(copies.obj({ Type: 'Page', Parent: PAGES, MediaBox: box, TrimBox: box, BleedBox: box, Resources: {} }));
      await writeCopies(copies);
      return ref;
    },
    async finish(pages, opts) {
      await start();
      const tail = PDFContext.create();
      await putObject(PAGES, tail.obj({ Type: 'Pages', Kids: pages, Count: pages.length }));
      const catalog = tail.obj({ Type: 'Catalog', Pages: PAGES });
      const info = tail.obj({ Title: PDFString.of(opts.title), Producer: PDFString.of(PRODUCER) });
      if (pdfx) {
        const at = new Date(pdfx.identity.createdAt);
        const extra = copiesContext();
        const xmp = extra.register(extra.stream(Buffer.from(printFileXmp({ ...pdfx.identity, title: opts.title }, at), 'utf8'), { Type: 'Metadata', Subtype: 'XML' }));
        const profile = extra.register(extra.stream(pdfx.colour.outputProfileDeflated, { N: 4, Filter: 'FlateDecode' }));
        const intent = extra.register(
          extra.obj({
            Type: 'OutputIntent',
            S: 'GTS_PDFX',
            OutputConditionIdentifier: PDFString.of(pdfx.colour.outputConditionIdentifier),
            OutputCondition: PDFString.of(pdfx.colour.outputCondition),
            Info: PDFString.of(pdfx.colour.outputInfo),
            RegistryName: PDFString.of(''),
            DestOutputProfile: profile,
          }),
        );
        await writeCopies(extra);
        catalog.set(PDFName.of('Metadata'), xmp);
        catalog.set(PDFName.of('OutputIntents'), tail.obj([intent]));
        info.set(PDFName.of('Creator'), PDFString.of(PRODUCER));
        info.set(PDFName.of('CreationDate'), PDFString.fromDate(at));
        info.set(PDFName.of('ModDate'), PDFString.fromDate(at));
        // Nobody traps the sheets; a RIP that may trap decides so from this "False".
        info.set(PDFName.of('Trapped'), PDFName.of('False'));
      }
      await putObject(CATALOG, catalog);
      await putObject(INFO, info);
      const xrefAt = position;
      const size = largest + 1;
      const rows = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
      for (let n = 1; n < size; n++) rows.push(offsets[n] === undefined ? '0000000000 65535 f \n' : `${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
      await put(latin1(rows.join('')));
      const id = pdfx ? ` /ID [${PDFHexString.of(pdfx.identity.documentId).toString()} ${PDFHexString.of(pdfx.identity.documentId).toString()}]` : '';
      await put(latin1(`trailer\n<< /Size ${size} /Root ${CATALOG.objectNumber} 0 R /Info ${INFO.objectNumber} 0 R${id} >>\nstartxref\n${xrefAt}\n%%EOF\n`));
    },
  };
}

/**
 * Writes the files' pages in order as one PDF through `write`; each page keeps its own boxes
 * (MediaBox, TrimBox, BleedBox) and resources. Answers the page count.
 */
export async function concatPdfs(files: AsyncIterable<Uint8Array>, write: (bytes: Uint8Array) => Promise<void>, opts: { title: string }): Promise<number> {
  const out = pdfPageWriter(write);
  const pages: PDFRef[] = [];
  for await (const bytes of files) pages.push(...(await out.copyPages(await PDFDocument.load(bytes, { updateMetadata: false }))));
  await out.finish(pages, opts);
  return pages.length;
}

const WRITE_CHUNK = 1 << 20;

/**
 * A file written through `make`'s `write`, a megabyte at a time (a PDF's objects are small: not one
 * system call each). The file is removed when `make` fails.
 */
export async function writeFileInChunks<T>(file: string, make: (write: (bytes: Uint8Array) => Promise<void>) => Promise<T>): Promise<T> {
  const out = await fs.open(file, 'w');
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes) await out.write(Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
  };
  let written = false;
  try {
    const made = await make(async (bytes) => {
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= WRITE_CHUNK) await flush();
    });
    await flush();
    written = true;
    return made;
  } finally {
    await out.close();
    if (!written) await fs.rm(file, { force: true });
  }
}
