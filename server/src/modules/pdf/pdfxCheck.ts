// A read-only PDF/X-4 checker: the requirements of ISO 15930-7:2010 (PDF/X-4) that our print files
// must meet, checked with pdf-lib on the finished bytes. It is not a full validator; what it checks:
//
// - encryption: none (ISO 15930-7 §6.1.2: the Encrypt key shall not be present in the trailer).
// - output-intent: the catalog's /OutputIntents holds exactly one intent of subtype /GTS_PDFX, with
//   an OutputConditionIdentifier (§6.2.2).
// - output-profile: that intent embeds its DestOutputProfile (PDF/X-4, not X-4p) and the profile is
//   an ICC output profile: header device class 'prtr', colour space 'CMYK' (our printers print CMYK),
//   with the stream's /N saying 4 components.
// - xmp-version: the catalog's /Metadata XMP says pdfxid:GTS_PDFXVersion = "PDF/X-4", the pdfxid
//   prefix bound to http://www.npes.org/pdfx/ns/id/ (§6.2.3; X-4 identifies itself in XMP only).
// - document-id: the trailer has an /ID (§6.1.3 via ISO 32000-1 §14.4).
// - trapped: Info /Trapped is /True or /False; /Unknown or absent is not allowed (§6.2.4).
// - page-boxes: every page has a TrimBox or an ArtBox, not both, and a BleedBox; the trim (or art)
//   box lies within the bleed box and the bleed box within the MediaBox (§6.2.5). PDF/X makes the
//   BleedBox optional; we require it because our files must carry their bleed.
// - javascript: no /JavaScript name tree, no /JS or JavaScript actions, no /AA additional actions
//   on the catalog, pages, annotations or form fields (§6.6.1: actions are not allowed).
// - fonts-embedded: every font used by a page or a form XObject on it has its program embedded
//   (FontFile, FontFile2 or FontFile3 in its descriptor; Type3 fonts are programs themselves).
// - colour-space: every image XObject and every named colour space in resources is device
//   independent (ICCBased, Lab, CalRGB, CalGray), or a device space the output intent covers:
//   DeviceCMYK and DeviceGray with a CMYK intent, DeviceRGB only when the same resources give a
//   DefaultRGB (§6.2.4.3). Indexed, Separation and DeviceN are judged by their base/alternate space.
//   Content streams are scanned for the DeviceRGB operators rg/RG under the same DefaultRGB rule;
//   other operators (sc/scn against a named space) are judged through the named space. JPX images
//   without /ColorSpace take their colour from the codestream and are not read.
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { readIccHeader } from './cmykProfile';

export type PdfxRule =
  | 'readable'
  | 'encryption'
  | 'output-intent'
  | 'output-profile'
  | 'xmp-version'
  | 'document-id'
  | 'trapped'
  | 'page-boxes'
  | 'javascript'
  | 'fonts-embedded'
  | 'colour-space';

export interface PdfxProblem {
  rule: PdfxRule;
  message: string;
  /** 1-based page number, when the problem belongs to a page. */
  page?: number;
}

export const PDFX_NAMESPACE = 'http://www.npes.org/pdfx/ns/id/';
export const PDFX4_VERSION = 'PDF/X-4';

const name = (n: string) => PDFName.of(n);

/** The problems that keep `bytes` from being PDF/X-4; empty when it meets everything we check. */
export async function checkPdfX4(bytes: Uint8Array): Promise<PdfxProblem[]> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
  } catch (err) {
    return [{ rule: 'readable', message: `Not a readable PDF: ${err instanceof Error ? err.message : String(err)}` }];
  }
  // An encrypted file's strings and streams can't be read, so nothing else is judged.
  if (doc.isEncrypted || doc.context.trailerInfo.Encrypt) {
    return [{ rule: 'encryption', message: 'The PDF is encrypted; PDF/X forbids encryption' }];
  }
  const problems: PdfxProblem[] = [];
  const outputSpace = checkOutputIntent(doc, problems);
  checkXmp(doc, problems);
  checkDocumentId(doc, problems);
  checkTrapped(doc, problems);
  checkPageBoxes(doc, problems);
  checkJavaScript(doc, problems);
  checkResources(doc, outputSpace, problems);
  return problems;
}

function lookup(doc: PDFDocument, obj: PDFObject | undefined): PDFObject | undefined {
  return obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
}

function streamBytes(stream: PDFStream): Uint8Array | null {
  try {
    return stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents();
  } catch {
    return null;
  }
}

/** Checks the GTS_PDFX output intent; answers its profile's colour space ('CMYK', …) or null. */
function checkOutputIntent(doc: PDFDocument, problems: PdfxProblem[]): string | null {
  const intents = doc.catalog.lookupMaybe(name('OutputIntents'), PDFArray);
  const pdfx = (intents?.asArray() ?? [])
    .map((entry) => lookup(doc, entry))
    .filter((entry): entry is PDFDict => entry instanceof PDFDict)
    .filter((intent) => intent.get(name('S')) === name('GTS_PDFX'));
  if (pdfx.length === 0) {
    problems.push({ rule: 'output-intent', message: 'No /OutputIntents entry of subtype GTS_PDFX' });
    return null;
  }
  if (pdfx.length > 1) {
    problems.push({ rule: 'output-intent', message: `${pdfx.length} GTS_PDFX output intents; PDF/X allows one` });
  }
  const intent = pdfx[0];
  if (!textOf(lookup(doc, intent.get(name('OutputConditionIdentifier'))))) {
    problems.push({ rule: 'output-intent', message: 'The GTS_PDFX output intent has no OutputConditionIdentifier' });
  }
  const profile = lookup(doc, intent.get(name('DestOutputProfile')));
  if (!(profile instanceof PDFStream)) {
    problems.push({ rule: 'output-profile', message: 'The GTS_PDFX output intent embeds no DestOutputProfile' });
    return null;
  }
  const icc = streamBytes(profile);
  if (!icc) {
    problems.push({ rule: 'output-profile', message: 'The DestOutputProfile stream cannot be decoded' });
    return null;
  }
  try {
    const header = readIccHeader(icc);
    const space = header.colourSpace.trim();
    if (header.deviceClass !== 'prtr' || space !== 'CMYK') {
      problems.push({
        rule: 'output-profile',
        message: `The DestOutputProfile is a '${header.deviceClass}' ${space} profile; a CMYK output ('prtr') profile is needed`,
      });
    } else if (lookup(doc, profile.dict.get(name('N')))?.toString() !== '4') {
      problems.push({ rule: 'output-profile', message: 'The DestOutputProfile stream does not say /N 4 for its CMYK profile' });
    }
    return space;
  } catch (err) {
    problems.push({ rule: 'output-profile', message: `The DestOutputProfile is not an ICC profile (${(err as Error).message})` });
    return null;
  }
}

function textOf(obj: PDFObject | undefined): string | null {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.decodeText();
  return null;
}

function checkXmp(doc: PDFDocument, problems: PdfxProblem[]): void {
  const metadata = doc.catalog.lookup(name('Metadata'));
  const xml = metadata instanceof PDFStream ? streamBytes(metadata) : null;
  if (!xml) {
    problems.push({ rule: 'xmp-version', message: 'No XMP metadata stream in the catalog, so no GTS_PDFXVersion' });
    return;
  }
  const version = pdfxVersionOf(Buffer.from(xml).toString('utf8'));
  if (version !== PDFX4_VERSION) {
    problems.push({
      rule: 'xmp-version',
      message: version === null
        ? `The XMP metadata has no GTS_PDFXVersion in the ${PDFX_NAMESPACE} namespace`
        : `The XMP metadata says GTS_PDFXVersion "${version}", not "${PDFX4_VERSION}"`,
    });
  }
}

/** pdfxid:GTS_PDFXVersion as an attribute or an element, under whatever prefix the namespace has. */
export function pdfxVersionOf(xmp: string): string | null {
  const escaped = PDFX_NAMESPACE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const binding of xmp.matchAll(new RegExp(`xmlns:([A-Za-z_][\\w.-]*)\\s*=\\s*["']${escaped}["']`, 'g'))) {
    const prefix = binding[1];
    const attr = new RegExp(`${prefix}:GTS_PDFXVersion\\s*=\\s*["']([^"']*)["']`).exec(xmp);
    if (attr) return attr[1];
    const element = new RegExp(`<${prefix}:GTS_PDFXVersion>\\s*([^<]*?)\\s*</${prefix}:GTS_PDFXVersion>`).exec(xmp);
    if (element) return element[1];
  }
  return null;
}

function checkDocumentId(doc: PDFDocument, problems: PdfxProblem[]): void {
  const id = lookup(doc, doc.context.trailerInfo.ID);
  if (!(id instanceof PDFArray) || id.size() !== 2) {
    problems.push({ rule: 'document-id', message: 'The trailer has no document /ID (two strings)' });
  }
}

function checkTrapped(doc: PDFDocument, problems: PdfxProblem[]): void {
  const info = lookup(doc, doc.context.trailerInfo.Info);
  const trapped = info instanceof PDFDict ? info.get(name('Trapped')) : undefined;
  if (trapped !== name('True') && trapped !== name('False')) {
    const said = trapped === undefined ? 'missing' : trapped.toString();
    problems.push({ rule: 'trapped', message: `Info /Trapped is ${said}; PDF/X needs /True or /False` });
  }
}

interface Box {
  llx: number;
  lly: number;
  urx: number;
  ury: number;
}

function boxOf(doc: PDFDocument, obj: PDFObject | undefined): Box | null {
  const array = lookup(doc, obj);
  if (!(array instanceof PDFArray) || array.size() !== 4) return null;
  const n = array.asArray().map((v) => lookup(doc, v));
  if (!n.every((v): v is PDFNumber => v instanceof PDFNumber)) return null;
  const [a, b, c, d] = n.map((v) => v.asNumber());
  return { llx: Math.min(a, c), lly: Math.min(b, d), urx: Math.max(a, c), ury: Math.max(b, d) };
}

// Boxes are written with a few decimals; a hundredth of a point is far below a printer's tolerance.
const EPSILON = 0.01;
const within = (inner: Box, outer: Box) =>
  inner.llx >= outer.llx - EPSILON &&
  inner.lly >= outer.lly - EPSILON &&
  inner.urx <= outer.urx + EPSILON &&
  inner.ury <= outer.ury + EPSILON;

function checkPageBoxes(doc: PDFDocument, problems: PdfxProblem[]): void {
  doc.getPages().forEach((page, index) => {
    const at = index + 1;
    const node = page.node;
    const media = boxOf(doc, node.MediaBox());
    const trim = boxOf(doc, node.get(name('TrimBox')));
    const art = boxOf(doc, node.get(name('ArtBox')));
    const bleed = boxOf(doc, node.get(name('BleedBox')));
    if (!media) {
      problems.push({ rule: 'page-boxes', message: 'The page has no valid MediaBox', page: at });
      return;
    }
    if (!trim && !art) problems.push({ rule: 'page-boxes', message: 'The page has neither a TrimBox nor an ArtBox', page: at });
    if (trim && art) problems.push({ rule: 'page-boxes', message: 'The page has both a TrimBox and an ArtBox', page: at });
    if (!bleed) {
      problems.push({ rule: 'page-boxes', message: 'The page has no BleedBox', page: at });
    } else if (!within(bleed, media)) {
      problems.push({ rule: 'page-boxes', message: 'The BleedBox extends beyond the MediaBox', page: at });
    }
    const finished = trim ?? art;
    if (finished && !within(finished, bleed ?? media)) {
      const inner = trim ? 'TrimBox' : 'ArtBox';
      problems.push({ rule: 'page-boxes', message: `The ${inner} extends beyond the ${bleed ? 'BleedBox' : 'MediaBox'}`, page: at });
    }
  });
}

function checkJavaScript(doc: PDFDocument, problems: PdfxProblem[]): void {
  const pageOf = new Map<PDFRef, number>();
  doc.getPages().forEach((page, i) => pageOf.set(page.ref, i + 1));
  const catalogRef = doc.context.trailerInfo.Root;
  // One problem per object, naming everything found in it, so a trigger and its script count once.
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null;
    if (!dict) continue;
    const found = scriptsIn(dict, new Set());
    const names = ref === catalogRef ? dict.lookup(name('Names')) : undefined;
    if (names instanceof PDFDict && names.has(name('JavaScript'))) found.unshift('a /JavaScript name tree');
    if (found.length === 0) continue;
    const page = pageOf.get(ref);
    const where = page ? 'on the page' : ref === catalogRef ? 'in the catalog' : `in object ${ref.toString()}`;
    const message = `${[...new Set(found)].join(', ')} ${where}; PDF/X forbids scripts and actions`;
    problems.push(page ? { rule: 'javascript', message, page } : { rule: 'javascript', message });
  }
}

/** What in this dictionary (and the direct dictionaries inside it) is a script or an action trigger. */
function scriptsIn(dict: PDFDict, seen: Set<PDFDict>): string[] {
  if (seen.has(dict)) return [];
  seen.add(dict);
  const found: string[] = [];
  if (dict.has(name('JS'))) found.push('a /JS script');
  else if (dict.get(name('S')) === name('JavaScript')) found.push('a JavaScript action');
  if (dict.has(name('AA'))) found.push('an /AA additional-actions entry');
  for (const [, value] of dict.entries()) {
    if (value instanceof PDFDict) found.push(...scriptsIn(value, seen));
    if (value instanceof PDFArray) {
      for (const item of value.asArray()) if (item instanceof PDFDict) found.push(...scriptsIn(item, seen));
    }
  }
  return found;
}

/** Fonts and colour spaces of every page's resources, following form XObjects. */
function checkResources(doc: PDFDocument, outputSpace: string | null, problems: PdfxProblem[]): void {
  const reported = new Set<string>();
  const report = (problem: PdfxProblem) => {
    const key = `${problem.rule}|${problem.page}|${problem.message}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push(problem);
  };
  doc.getPages().forEach((page, index) => {
    const at = index + 1;
    const visited = new Set<PDFObject>();
    const visit = (resources: PDFDict | undefined, contents: PDFStream[]) => {
      const hasDefaultRgb = dictOf(doc, resources?.get(name('ColorSpace')))?.has(name('DefaultRGB')) ?? false;
      if (!hasDefaultRgb && outputSpace !== 'RGB' && contents.some((stream) => paintsDeviceRgb(stream))) {
        report({ rule: 'colour-space', message: 'Content paints in DeviceRGB (rg/RG) without a DefaultRGB or RGB output intent', page: at });
      }
      if (!resources || visited.has(resources)) return;
      visited.add(resources);
      const judge = (space: PDFObject | undefined, what: string) => {
        const verdict = colourVerdict(doc, space, outputSpace, hasDefaultRgb);
        if (verdict) report({ rule: 'colour-space', message: `${what}: ${verdict}`, page: at });
      };
      const fonts = dictOf(doc, resources.get(name('Font')));
      for (const [key, value] of fonts?.entries() ?? []) {
        const font = dictOf(doc, value);
        if (font && !fontEmbedded(doc, font)) {
          const base = font.get(name('BaseFont'));
          report({ rule: 'fonts-embedded', message: `Font ${key.decodeText()} (${base?.toString() ?? 'no name'}) is not embedded`, page: at });
        }
      }
      for (const [key, value] of dictOf(doc, resources.get(name('ColorSpace')))?.entries() ?? []) {
        if (key === name('DefaultRGB') || key === name('DefaultCMYK') || key === name('DefaultGray')) continue;
        judge(value, `Colour space ${key.decodeText()}`);
      }
      for (const [key, value] of dictOf(doc, resources.get(name('XObject')))?.entries() ?? []) {
        const xobject = lookup(doc, value);
        if (!(xobject instanceof PDFStream)) continue;
        const subtype = xobject.dict.get(name('Subtype'));
        if (subtype === name('Image')) {
          const isMask = xobject.dict.get(name('ImageMask'));
          const isJpx = [xobject.dict.get(name('Filter'))].flat().some((f) => f?.toString().includes('JPXDecode'));
          if (isMask?.toString() === 'true' || (isJpx && !xobject.dict.has(name('ColorSpace')))) continue;
          judge(xobject.dict.get(name('ColorSpace')), `Image ${key.decodeText()}`);
        } else if (subtype === name('Form')) {
          visit(dictOf(doc, xobject.dict.get(name('Resources'))), [xobject]);
        }
      }
    };
    const contents = lookup(doc, page.node.get(name('Contents')));
    const streams = (contents instanceof PDFArray ? contents.asArray().map((c) => lookup(doc, c)) : [contents])
      .filter((c): c is PDFStream => c instanceof PDFStream);
    visit(page.node.Resources(), streams);
  });
}

/** Whether a content stream sets a DeviceRGB colour: strings and inline image data are skipped. */
function paintsDeviceRgb(stream: PDFStream): boolean {
  const bytes = streamBytes(stream);
  if (!bytes) return false;
  const text = Buffer.from(bytes)
    .toString('latin1')
    .replace(/\bBI\b[\s\S]*?\bEI\b/g, ' ')
    .replace(/\((?:\\[\s\S]|[^\\)])*\)/g, ' ')
    .replace(/<[0-9A-Fa-f\s]*>/g, ' ');
  return /(?:^|[\s\]])(?:[-+]?(?:\d+\.?\d*|\.\d+)\s+){3}(?:rg|RG)(?=[\s[\]/<(]|$)/.test(text);
}

function dictOf(doc: PDFDocument, obj: PDFObject | undefined): PDFDict | undefined {
  const value = lookup(doc, obj);
  return value instanceof PDFDict ? value : undefined;
}

function fontEmbedded(doc: PDFDocument, font: PDFDict): boolean {
  const subtype = font.get(name('Subtype'));
  if (subtype === name('Type3')) return true;
  let holder = font;
  if (subtype === name('Type0')) {
    const descendants = lookup(doc, font.get(name('DescendantFonts')));
    const first = descendants instanceof PDFArray ? dictOf(doc, descendants.get(0)) : undefined;
    if (!first) return false;
    holder = first;
  }
  const descriptor = dictOf(doc, holder.get(name('FontDescriptor')));
  return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.has(name(key)) ?? false);
}

/** Why a colour space is not allowed, or null when it is. */
function colourVerdict(doc: PDFDocument, obj: PDFObject | undefined, outputSpace: string | null, hasDefaultRgb: boolean): string | null {
  const space = lookup(doc, obj);
  if (space === undefined) return 'no /ColorSpace';
  if (space instanceof PDFName) {
    switch (space.decodeText()) {
      case 'DeviceCMYK':
        return outputSpace === 'CMYK' ? null : 'DeviceCMYK without a CMYK output intent';
      case 'DeviceGray':
        return outputSpace === 'CMYK' || outputSpace === 'GRAY' ? null : 'DeviceGray without a CMYK or gray output intent';
      case 'DeviceRGB':
        return hasDefaultRgb || outputSpace === 'RGB' ? null : 'DeviceRGB (untagged RGB) without a DefaultRGB or RGB output intent';
      case 'Pattern':
        return null;
      default:
        return `unknown colour space ${space.toString()}`;
    }
  }
  if (space instanceof PDFArray) {
    const family = lookup(doc, space.get(0));
    switch (family instanceof PDFName ? family.decodeText() : '') {
      case 'ICCBased':
      case 'Lab':
      case 'CalRGB':
      case 'CalGray':
        return null;
      case 'Indexed':
        return colourVerdict(doc, space.get(1), outputSpace, hasDefaultRgb);
      case 'Separation':
        return colourVerdict(doc, space.get(2), outputSpace, hasDefaultRgb);
      case 'DeviceN':
        return colourVerdict(doc, space.get(2), outputSpace, hasDefaultRgb);
      case 'Pattern':
        return space.size() > 1 ? colourVerdict(doc, space.get(1), outputSpace, hasDefaultRgb) : null;
      default:
        if (space.size() === 1) return colourVerdict(doc, space.get(0), outputSpace, hasDefaultRgb);
        return `unknown colour space ${family?.toString() ?? ''}`;
    }
  }
  return `unreadable colour space ${space.toString()}`;
}
