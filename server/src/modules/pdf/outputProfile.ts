// What makes an ICC file a printer's output profile, and the output intent a print file carries:
// an uploaded profile's, or the bundled one (cmykProfile.ts) when the site and the instance name none.
import crypto from 'node:crypto';
import { iccTextTag, loadCmykProfile, readIccHeader } from './cmykProfile';

/** The output intent of a print file (its GTS_PDFX OutputIntent). */
export interface OutputIntent {
  /** Names the profile in print-file keys and caches: 'bundled', or 'icc:' and the profile's SHA-256. */
  identity: string;
  /** The ICC profile, embedded as the intent's DestOutputProfile. */
  profile: Uint8Array;
  outputConditionIdentifier: string;
  outputCondition: string;
  /** The intent's /Info: a person's name for the condition. */
  info: string;
}

/** What the upload check read from a profile. */
export interface OutputProfileFacts {
  name: string;
  /** The header's data colour space, trimmed ('CMYK'). */
  colorSpace: string;
  /** The header's device class ('prtr'). */
  deviceClass: string;
  version: number;
  sha256: string;
}

/** A profile refused on upload: the sentence says what the file is and what is needed. */
export class ProfileRefused extends Error {
  override name = 'ProfileRefused';
}

const CLASS_WORDS: Record<string, string> = {
  mntr: 'a display (monitor) profile',
  scnr: 'an input (scanner or camera) profile',
  link: 'a device link',
  spac: 'a colour space conversion profile',
  abst: 'an abstract profile',
  nmcl: 'a named colour profile',
};

/** Tags an output profile cannot go without: its name, and both directions a RIP converts with. */
const REQUIRED_TAGS = [
  ['desc', 'its description'],
  ['A2B0', 'its device-to-colour table (A2B0)'],
  ['B2A0', 'its colour-to-device table (B2A0)'],
] as const;

function tagSignatures(bytes: Uint8Array): Set<string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 132) return new Set();
  const count = view.getUint32(128);
  const out = new Set<string>();
  for (let i = 0; i < count && 132 + 12 * (i + 1) <= bytes.length; i++) {
    const at = 132 + 12 * i;
    const offset = view.getUint32(at + 4);
    const size = view.getUint32(at + 8);
    if (offset + size <= bytes.length) out.add(String.fromCharCode(...bytes.subarray(at, at + 4)));
  }
  return out;
}

/**
 * Checks an uploaded file is a CMYK output ICC profile (what a PDF/X output intent needs) and reads
 * its name; a ProfileRefused says why not, in a sentence for the admin.
 */
export function checkOutputProfile(bytes: Uint8Array): OutputProfileFacts {
  let header: ReturnType<typeof readIccHeader>;
  try {
    header = readIccHeader(bytes);
  } catch {
    throw new ProfileRefused("The file is not an ICC colour profile (it has no 'acsp' signature): upload the .icc or .icm file your printer gives you");
  }
  if (header.size !== bytes.length) throw new ProfileRefused(`The profile is incomplete or damaged: its header says ${header.size} bytes, the file has ${bytes.length}`);
  const space = header.colourSpace.trim();
  if (header.deviceClass !== 'prtr') {
    const what = CLASS_WORDS[header.deviceClass] ?? `a '${header.deviceClass}' profile`;
    throw new ProfileRefused(`The profile is ${what} (${space}), not a printer's output profile: a print file needs the CMYK output ('prtr') profile your printer prints with`);
  }
  if (space !== 'CMYK') throw new ProfileRefused(`The profile is a ${space} output profile, not CMYK: a print file needs the CMYK output profile your printer prints with`);
  const tags = tagSignatures(bytes);
  const missing = REQUIRED_TAGS.filter(([sig]) => !tags.has(sig)).map(([, words]) => words);
  if (missing.length) throw new ProfileRefused(`The profile lacks ${missing.join(' and ')}: it cannot be an output intent`);
  const name = (iccTextTag(bytes, 'desc') ?? '').replace(/\s+/g, ' ').trim();
  if (!name) throw new ProfileRefused('The profile has no readable description (its desc tag) to name it by');
  return { name: name.slice(0, 200), colorSpace: space, deviceClass: header.deviceClass, version: header.majorVersion, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

/** An uploaded profile as an output intent: named by its description. */
export function outputIntentOfProfile(profile: Uint8Array, name: string, sha256: string): OutputIntent {
  return { identity: `icc:${sha256}`, profile, outputConditionIdentifier: name, outputCondition: name, info: name };
}

/** The bundled profile's intent: what a print file carries when no profile is chosen. */
export async function bundledOutputIntent(): Promise<OutputIntent> {
  const cmyk = await loadCmykProfile();
  return { identity: 'bundled', profile: cmyk.bytes, outputConditionIdentifier: cmyk.outputConditionIdentifier, outputCondition: cmyk.outputCondition, info: cmyk.description };
}
