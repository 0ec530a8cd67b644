// Many PDFs written as one, document by document, straight to a sink (a file on disk): each
// source's pages and what they use are copied with fresh object numbers and written out, then let
// go. Memory holds one source at a time, whatever the number of documents; pdf-lib alone would keep
// every copied page of the whole result in memory until it saves. The page order is decided at the
// end (the page tree is written last), so a page written late can still come first.
import fs from 'node:fs/promises';
import { PDFContext, PDFDocument, PDFName, PDFObjectCopier, PDFRef, PDFString, type PDFObject } from 'pdf-lib';

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

export function pdfPageWriter(write: (bytes: Uint8Array) => Promise<void>): PdfPageWriter {
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
    await put(Buffer.concat([latin1('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), latin1('\n')]));
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
      const ref = copies.register(copies.obj({ Type: 'Page', Parent: PAGES, MediaBox: [0, 0, widthPt, heightPt], Resources: {} }));
      await writeCopies(copies);
      return ref;
    },
    async finish(pages, opts) {
      await start();
      const tail = PDFContext.create();
      await putObject(PAGES, tail.obj({ Type: 'Pages', Kids: pages, Count: pages.length }));
      await putObject(CATALOG, tail.obj({ Type: 'Catalog', Pages: PAGES }));
      await putObject(INFO, tail.obj({ Title: PDFString.of(opts.title), Producer: PDFString.of('Presswork') }));
      const xrefAt = position;
      const size = largest + 1;
      const rows = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
      for (let n = 1; n < size; n++) rows.push(offsets[n] === undefined ? '0000000000 65535 f \n' : `${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
      await put(latin1(rows.join('')));
      await put(latin1(`trailer\n<< /Size ${size} /Root ${CATALOG.objectNumber} 0 R /Info ${INFO.objectNumber} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`));
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
