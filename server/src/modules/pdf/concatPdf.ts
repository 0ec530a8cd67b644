// Many PDFs written as one, file by file, straight to a sink (a file on disk): each source is
// parsed, its pages and what they use copied with fresh object numbers and written out, then let
// go. Memory holds one source at a time, whatever the number of files; pdf-lib alone would keep
// every copied page of the whole result in memory until it saves.
import { PDFContext, PDFDocument, PDFName, PDFObjectCopier, PDFRef, PDFString, type PDFObject } from 'pdf-lib';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

function objectBytes(ref: PDFRef, object: PDFObject): Buffer {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return Buffer.concat([latin1(`${ref.objectNumber} ${ref.generationNumber} obj\n`), body, latin1('\nendobj\n')]);
}

/**
 * Writes the files' pages in order as one PDF through `write`; each page keeps its own boxes
 * (MediaBox, TrimBox, BleedBox) and resources. Answers the page count.
 */
export async function concatPdfs(files: AsyncIterable<Uint8Array>, write: (bytes: Uint8Array) => Promise<void>, opts: { title: string }): Promise<number> {
  // Reserved: the page tree, the catalog and the info dictionary are written last, with known numbers.
  const PAGES = PDFRef.of(1);
  const CATALOG = PDFRef.of(2);
  const INFO = PDFRef.of(3);
  let position = 0;
  const offsets: number[] = [];
  const kids: PDFRef[] = [];
  let largest = INFO.objectNumber;
  const put = async (bytes: Uint8Array) => {
    await write(bytes);
    position += bytes.length;
  };
  const putObject = async (ref: PDFRef, object: PDFObject) => {
    offsets[ref.objectNumber] = position;
    await put(objectBytes(ref, object));
  };

  await put(Buffer.concat([latin1('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), latin1('\n')]));
  for await (const bytes of files) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false });
    // A context of this file's copies only, numbered after everything written so far.
    const copies = PDFContext.create();
    copies.largestObjectNumber = largest;
    const copier = PDFObjectCopier.for(source.context, copies);
    for (const page of source.getPages()) {
      const copied = copier.copy(page.node);
      copied.set(PDFName.of('Parent'), PAGES);
      kids.push(copies.register(copied));
    }
    for (const [ref, object] of copies.enumerateIndirectObjects()) await putObject(ref, object);
    largest = copies.largestObjectNumber;
  }

  const tail = PDFContext.create();
  await putObject(PAGES, tail.obj({ Type: 'Pages', Kids: kids, Count: kids.length }));
  await putObject(CATALOG, tail.obj({ Type: 'Catalog', Pages: PAGES }));
  await putObject(INFO, tail.obj({ Title: PDFString.of(opts.title), Producer: PDFString.of('Presswork') }));

  const xrefAt = position;
  const size = largest + 1;
  const rows = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
  for (let n = 1; n < size; n++) rows.push(offsets[n] === undefined ? '0000000000 65535 f \n' : `${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  await put(latin1(rows.join('')));
  await put(latin1(`trailer\n<< /Size ${size} /Root ${CATALOG.objectNumber} 0 R /Info ${INFO.objectNumber} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`));
  return kids.length;
}
