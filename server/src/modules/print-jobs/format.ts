// A print job's format (`data.format`: card-a5, mug-wrap, poster-a3, poster-a2): what it prints as,
// its page count and size. Set when the job is made, from its design; a job of uploaded artwork
// without a design says its own (a card when it says none).
import { formatOf, isPrintFormat, PRINT_FORMATS, productTypeOfFormat, type PrintFormat } from '../../../../common/design-doc/printSize';
import type { Design } from '../designs';
import { fieldError } from '../../http/fieldErrors';
import type { PrintJob } from './repo';

type DesignFacts = Pick<Design, 'productType' | 'name' | 'sku' | 'hpSKU' | 'hpAdditionData' | 'data'>;

/** The design's editor document, when it has one with a format. */
function documentFormatOf(design: DesignFacts): { format: string } | null {
  const doc = design.data.document;
  return doc && typeof doc === 'object' && typeof (doc as { format?: unknown }).format === 'string' ? (doc as { format: string }) : null;
}

/** What the design says of its size besides its document: its name, SKUs and attribute values ("A2"). */
const wordsOf = (design: DesignFacts): string[] => [design.name, design.sku ?? '', design.hpSKU ?? '', ...(design.hpAdditionData?.attributes ?? []).map((a) => String(a?.value ?? ''))];

/** A design's format: its editor document's, else its product type's (a poster A3 unless it says A2). */
export function formatOfDesign(design: DesignFacts): PrintFormat {
  return formatOf(design.productType, documentFormatOf(design) as { format: PrintFormat } | null, wordsOf(design));
}

/**
 * The format a new job takes: its design's editor document decides; a design of uploaded artwork
 * (no document) may be given a format of its own product type (an A2 poster); without a design the
 * given one, else a card.
 */
export function formatForNewJob(design: DesignFacts | undefined, given: unknown): PrintFormat {
  if (given !== undefined && !isPrintFormat(given)) throw fieldError('data.format', `must be one of ${PRINT_FORMATS.join(', ')}`);
  if (!design) return given ?? 'card-a5';
  const own = formatOfDesign(design);
  if (given === undefined || given === own) return own;
  if (documentFormatOf(design)) throw fieldError('data.format', `is ${given}, but the design "${design.name}" is made in the editor as ${own}`);
  if (design.productType && productTypeOfFormat(given) !== design.productType) {
    throw fieldError('data.format', `is ${given}, a ${productTypeOfFormat(given)}, but the design "${design.name}" is a ${design.productType}`);
  }
  return given;
}

/** The format a job prints as: the one it was made with; a job made before formats, its design's (or its product type's). */
export function formatOfJob(job: Pick<PrintJob, 'data' | 'productType'>, design: DesignFacts | undefined): PrintFormat {
  if (isPrintFormat(job.data.format)) return job.data.format;
  if (design) return formatOfDesign(design);
  return formatOf(job.productType);
}
