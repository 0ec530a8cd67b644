// Small, valid ICC profiles written byte by byte (ICC.1:2010 / ICC.1:2001-04): a header, a tag
// table and the tags an output profile needs (desc, cprt, wtpt, A2B0, B2A0 as 2-point lut16
// tables). Enough for a PDF/X output intent and for our upload check; not for colour accuracy.

export interface IccSpec {
  name: string;
  /** 2 (desc/text tags) or 4 (mluc tags). */
  version?: 2 | 4;
  deviceClass?: 'prtr' | 'mntr' | 'scnr';
  colourSpace?: 'CMYK' | 'RGB ' | 'GRAY';
  /** Leave these tags out (to make a broken profile). */
  without?: string[];
}

const ascii = (s: string) => Buffer.from(s, 'latin1');
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const s15 = (x: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(Math.round(x * 65536));
  return b;
};
const pad4 = (b: Buffer) => (b.length % 4 ? Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]) : b);

function textDescription(text: string): Buffer {
  // v2 textDescriptionType: ASCII (with its NUL), then empty Unicode and ScriptCode parts.
  const a = Buffer.concat([ascii(text), Buffer.alloc(1)]);
  return Buffer.concat([ascii('desc'), Buffer.alloc(4), u32(a.length), a, u32(0), u32(0), u16(0), Buffer.alloc(1), Buffer.alloc(67)]);
}

function mluc(text: string): Buffer {
  const utf16 = Buffer.from(text, 'utf16le').swap16();
  return Buffer.concat([ascii('mluc'), Buffer.alloc(4), u32(1), u32(12), ascii('enUS'), u32(utf16.length), u32(28), utf16]);
}

const textTag = (text: string, version: number) => (version === 4 ? mluc(text) : Buffer.concat([ascii('text'), Buffer.alloc(4), ascii(text), Buffer.alloc(1)]));

/** lut16Type with 2 grid points and 2-entry curves: identity-ish, valid in shape. */
function lut16(inputs: number, outputs: number): Buffer {
  const matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1].map(s15);
  const curve = Buffer.concat([u16(0), u16(65535)]);
  const clutPoints = 2 ** inputs;
  const clut: Buffer[] = [];
  for (let p = 0; p < clutPoints; p++) for (let o = 0; o < outputs; o++) clut.push(u16(((p >> o) & 1) * 65535));
  return Buffer.concat([
    ascii('mft2'),
    Buffer.alloc(4),
    Buffer.from([inputs, outputs, 2, 0]),
    ...matrix,
    u16(2),
    u16(2),
    ...Array.from({ length: inputs }, () => curve),
    ...clut,
    ...Array.from({ length: outputs }, () => curve),
  ]);
}

const CHANNELS: Record<string, number> = { CMYK: 4, 'RGB ': 3, GRAY: 1 };

/** A profile's bytes. */
export function iccProfile(spec: IccSpec): Buffer {
  const version = spec.version ?? 2;
  const space = spec.colourSpace ?? 'CMYK';
  const channels = CHANNELS[space];
  const tags: Array<[string, Buffer]> = [
    ['desc', version === 4 ? mluc(spec.name) : textDescription(spec.name)],
    ['cprt', textTag('No copyright, use freely (test profile)', version)],
    ['wtpt', Buffer.concat([ascii('XYZ '), Buffer.alloc(4), s15(0.9642), s15(1), s15(0.8249)])],
    ['A2B0', lut16(channels, 3)],
    ['B2A0', lut16(3, channels)],
  ];
  const kept = tags.filter(([sig]) => !(spec.without ?? []).includes(sig));
  const tableSize = 4 + 12 * kept.length;
  let offset = 128 + tableSize;
  const entries: Buffer[] = [];
  const bodies: Buffer[] = [];
  for (const [sig, body] of kept) {
    const padded = pad4(body);
    entries.push(Buffer.concat([ascii(sig), u32(offset), u32(body.length)]));
    bodies.push(padded);
    offset += padded.length;
  }
  const size = offset;
  const header = Buffer.alloc(128);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(version === 4 ? 0x04300000 : 0x02100000, 8);
  ascii(spec.deviceClass ?? 'prtr').copy(header, 12);
  ascii(space).copy(header, 16);
  ascii('Lab ').copy(header, 20);
  // 2026-01-01 00:00:00
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => header.writeUInt16BE(v, 24 + 2 * i));
  ascii('acsp').copy(header, 36);
  ascii('APPL').copy(header, 40);
  header.writeUInt32BE(0, 64);
  s15(0.9642).copy(header, 68);
  s15(1).copy(header, 72);
  s15(0.8249).copy(header, 76);
  return Buffer.concat([header, u32(kept.length), ...entries, ...bodies]);
}
