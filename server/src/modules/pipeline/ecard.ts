// The e-card of an order line: who it goes to, what it says, when (its line properties), and the
// picture the e-mail carries: the design's front drawn with the line's personalisation, or, for a
// picture e-card (a design with an image and no editor document), that image scaled to the e-mail.
import sharp from 'sharp';
import { z } from 'zod';
import { ECARD_PROPERTIES } from '../../../../common/api/pipeline';
import { FORMATS, type DesignDocument } from '../../../../common/design-doc/types';
import { HttpError, badRequest } from '../../http/errors';
import { isDay } from '../../lib/time';
import type { Design } from '../designs';
import { DPI_RANGE, DocumentProblem, documentOf, valuesOf, type RenderService } from '../render';

export interface EcardDetails {
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD; null: send at once. */
  sendDate: string | null;
}

export type LineProperties = { properties?: Array<{ name: string; value: unknown }> | null };

/** The e-mail's picture is about this wide: sharp in a mail client, small enough to send. */
export const ECARD_IMAGE_WIDTH = 1200;

const isEmail = (s: string) => z.email().safeParse(s).success;

/** A property's value by name, names compared case- and space-insensitively, trimmed ('' when absent). */
function propertyOf(values: Record<string, string>, name: string): string {
  const want = name.trim().toLowerCase();
  for (const [k, v] of Object.entries(values)) if (k.trim().toLowerCase() === want && v.trim() !== '') return v.trim();
  return '';
}

/** The e-card properties of a line, or every problem with them (the order shows them all at once). */
export function ecardOf(line: LineProperties): { ok: true; ecard: EcardDetails } | { ok: false; problems: string[] } {
  const values = valuesOf(line.properties ?? undefined);
  const recipientName = propertyOf(values, ECARD_PROPERTIES.recipientName);
  const recipientEmail = propertyOf(values, ECARD_PROPERTIES.recipientEmail);
  const message = propertyOf(values, ECARD_PROPERTIES.message);
  const sendDate = propertyOf(values, ECARD_PROPERTIES.sendDate);
  const problems: string[] = [];
  if (!recipientEmail) problems.push(`${ECARD_PROPERTIES.recipientEmail} is missing`);
  else if (!isEmail(recipientEmail)) problems.push(`${ECARD_PROPERTIES.recipientEmail} "${recipientEmail}" is not an e-mail address`);
  if (sendDate && !isDay(sendDate)) problems.push(`${ECARD_PROPERTIES.sendDate} "${sendDate}" is not a date (YYYY-MM-DD)`);
  if (problems.length) return { ok: false, problems };
  return { ok: true, ecard: { recipientName, recipientEmail, message, sendDate: sendDate || null } };
}

/** The dpi that draws the page (bleed included) ECARD_IMAGE_WIDTH px wide; an unknown format is the renderer's to refuse. */
function dpiFor(doc: unknown): number {
  const spec = FORMATS[(doc as Partial<DesignDocument> | null)?.format as keyof typeof FORMATS];
  if (!spec) return DPI_RANGE.min;
  const dpi = (ECARD_IMAGE_WIDTH * 25.4) / (spec.width + 2 * spec.bleed);
  return Math.min(DPI_RANGE.max, Math.max(DPI_RANGE.min, dpi));
}

/**
 * The front page of the e-card design drawn with the line's personalisation, as a PNG about
 * ECARD_IMAGE_WIDTH px wide. `missing` names the fields that drew their sample. 400 (naming the
 * design) when it has no document or its document cannot be drawn.
 */
export async function renderEcardFront(
  render: Pick<RenderService, 'renderDocument'>,
  design: Pick<Design, 'id' | 'name' | 'data'>,
  line: LineProperties,
  opts: { ownOrigin?: string } = {},
): Promise<{ png: Buffer; width: number; height: number; missing: string[] }> {
  const doc = documentOf(design);
  if (doc === undefined) throw badRequest(`The design "${design.name}" has no document to render`);
  try {
    const out = await render.renderDocument(doc, { dpi: dpiFor(doc), values: valuesOf(line.properties ?? undefined), pages: [0], previewWidth: 0, ownOrigin: opts.ownOrigin });
    return { png: out.pages[0], width: out.width, height: out.height, missing: out.missing };
  } catch (err) {
    if (err instanceof DocumentProblem) throw new HttpError(400, `The design "${design.name}" (id ${design.id}): ${err.message}`, err.details, undefined, err.field);
    throw err;
  }
}

/** The picture of a picture e-card: the design's image (made elsewhere and uploaded), when it has no editor document. */
export function ecardPictureOf(design: Pick<Design, 'image' | 'data'>): string | undefined {
  if (documentOf(design) !== undefined) return undefined;
  const artwork = Array.isArray(design.data.artworkUrls) ? design.data.artworkUrls.find((u): u is string => typeof u === 'string' && u !== '') : undefined;
  return design.image || artwork || undefined;
}

/** Why an e-card design cannot be e-mailed (neither a document to draw nor a picture), or undefined. */
export function ecardDesignProblem(design: Pick<Design, 'id' | 'name' | 'image' | 'data'>): string | undefined {
  if (documentOf(design) !== undefined || ecardPictureOf(design)) return undefined;
  return `The e-card design "${design.name}" (id ${design.id}) has neither an editor document nor a picture: open the design and make it in the editor or upload its picture`;
}

/**
 * A picture e-card's image, about ECARD_IMAGE_WIDTH px wide (a smaller picture is not enlarged):
 * JPEG when it came as JPEG (a photo stays small), PNG otherwise. 400 naming the design when the
 * file is not a picture.
 */
export async function ecardPicture(design: Pick<Design, 'id' | 'name'>, bytes: Buffer): Promise<{ image: Buffer; width: number; height: number; contentType: 'image/jpeg' | 'image/png' }> {
  try {
    const img = sharp(bytes, { failOn: 'error', limitInputPixels: 100_000_000 }).rotate().resize({ width: ECARD_IMAGE_WIDTH, withoutEnlargement: true }).flatten({ background: '#ffffff' });
    const jpeg = (await sharp(bytes).metadata()).format === 'jpeg';
    const out = await (jpeg ? img.jpeg({ quality: 88 }) : img.png()).toBuffer({ resolveWithObject: true });
    return { image: out.data, width: out.info.width, height: out.info.height, contentType: jpeg ? 'image/jpeg' : 'image/png' };
  } catch (err) {
    throw badRequest(`The picture of the e-card design "${design.name}" (id ${design.id}) cannot be read: ${(err as Error).message.split('\n')[0]}`);
  }
}
