// The CMYK destination profile a print file's PDF/X output intent embeds.
//
// Source: the built-in "cmyk" profile of libvips, reached through sharp (already a dependency)
// with its public API: we ask sharp for a tiny CMYK JPEG tagged with that profile and read the
// profile back from its metadata, so no file is vendored and no binary is picked apart. The
// profile is Graeme W. Gill's "Chemical proof" (ArgyllCMS), an output ('prtr') CMYK profile with
// both directions (A2B and B2A, so a RIP can convert RGB to it) whose copyright tag reads
// "Released into the public domain". It characterises a measured chemical proof, not a named
// exchange condition such as FOGRA39, so the output intent names it as a custom condition.
// Rejected: pdfjs-dist's CGATS001Compat-v2-micro.icc (CC0 but an input 'scnr' profile with A2B0
// only) and press-ready's JapanColor2001Coated.icc (Adobe's profile, shipped without its licence).
import sharp from 'sharp';

export interface CmykProfile {
  /** The ICC profile, as embedded in the output intent's DestOutputProfile stream. */
  bytes: Uint8Array;
  /** The profile's own description (its 'desc' tag). */
  description: string;
  /** OutputConditionIdentifier: not a registered characterisation, so "Custom". */
  outputConditionIdentifier: string;
  /** OutputCondition: a human-readable name of the printing condition. */
  outputCondition: string;
  /** Where it comes from and under what terms. */
  licence: string;
}

let loading: Promise<CmykProfile> | null = null;

/** The profile, read once per process. */
export function loadCmykProfile(): Promise<CmykProfile> {
  loading ??= readProfile().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

async function readProfile(): Promise<CmykProfile> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
    .toColourspace('cmyk')
    .withIccProfile('cmyk')
    .jpeg()
    .toBuffer();
  const { icc } = await sharp(tagged).metadata();
  if (!icc) throw new Error('sharp did not embed its CMYK profile');
  const bytes = new Uint8Array(icc);
  const header = readIccHeader(bytes);
  if (header.colourSpace !== 'CMYK' || header.deviceClass !== 'prtr') {
    throw new Error(`sharp's CMYK profile is ${header.deviceClass}/${header.colourSpace}, not an output CMYK profile`);
  }
  const description = iccTextTag(bytes, 'desc') ?? 'CMYK';
  return {
    bytes,
    description,
    outputConditionIdentifier: 'Custom',
    outputCondition: `${description} (ArgyllCMS, via libvips)`,
    licence: iccTextTag(bytes, 'cprt') ?? 'public domain',
  };
}

let srgb: Promise<Uint8Array> | null = null;

/**
 * The sRGB profile of RGB artwork that carries none (libvips' built-in "sRGB CC0", ICC v4, 480
 * bytes): PDF/X under a CMYK intent needs every RGB image to say which RGB it is.
 */
export function loadSrgbProfile(): Promise<Uint8Array> {
  srgb ??= (async () => {
    const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } }).withIccProfile('srgb').png().toBuffer();
    const { icc } = await sharp(tagged).metadata();
    if (!icc || readIccHeader(new Uint8Array(icc)).colourSpace !== 'RGB ') throw new Error('sharp did not embed its sRGB profile');
    return new Uint8Array(icc);
  })().catch((err: unknown) => {
    srgb = null;
    throw err;
  });
  return srgb;
}

export interface IccHeader {
  size: number;
  /** Profile/device class, e.g. 'prtr' (output), 'mntr', 'scnr'. */
  deviceClass: string;
  /** Data colour space, e.g. 'CMYK', 'RGB ', 'GRAY'. */
  colourSpace: string;
  /** Profile connection space, 'XYZ ' or 'Lab '. */
  pcs: string;
  /** Major version (2 or 4). */
  majorVersion: number;
}

/** The fields of an ICC header (ICC.1 §7.2) that matter for an output intent; throws when not a profile. */
export function readIccHeader(bytes: Uint8Array): IccHeader {
  if (bytes.length < 132) throw new Error('too short for an ICC profile');
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (ascii(36) !== 'acsp') throw new Error("no 'acsp' signature: not an ICC profile");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: view.getUint32(0),
    deviceClass: ascii(12),
    colourSpace: ascii(16),
    pcs: ascii(20),
    majorVersion: bytes[8],
  };
}

/** The text of a 'desc' (v2 textDescriptionType), 'text' or 'mluc' tag, or null. */
export function iccTextTag(bytes: Uint8Array, signature: string): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(128);
  for (let i = 0; i < count; i++) {
    const entry = 132 + 12 * i;
    if (entry + 12 > bytes.length) return null;
    if (String.fromCharCode(...bytes.subarray(entry, entry + 4)) !== signature) continue;
    const at = view.getUint32(entry + 4);
    const size = view.getUint32(entry + 8);
    if (at + size > bytes.length || size < 12) return null;
    const type = String.fromCharCode(...bytes.subarray(at, at + 4));
    const latin1 = (from: number, to: number) =>
      Buffer.from(bytes.subarray(from, to)).toString('latin1').replace(/\0+$/, '');
    if (type === 'desc') return latin1(at + 12, at + 12 + Math.max(0, view.getUint32(at + 8) - 1));
    if (type === 'text') return latin1(at + 8, at + size);
    if (type === 'mluc') {
      const length = view.getUint32(at + 20);
      const offset = view.getUint32(at + 24);
      return Buffer.from(bytes.subarray(at + offset, at + offset + length)).swap16().toString('utf16le');
    }
    return null;
  }
  return null;
}
