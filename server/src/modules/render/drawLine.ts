// A personalised line drawn in one place: the design's pages with the line's properties, as a new
// job is made (production) and as a job is drawn again on Re-check (print-jobs).
import type { Design } from '../designs';
import type { RenderService } from './service';

export interface DrawnLine {
  artworkUrls: string[];
  previewUrl: string | null;
  /** What the job's data says of the drawing: personalised, and a missing property's sample waits for review. */
  data: { personalised: true; needsReview?: true; missingFields?: string[] };
}

/** The line's pages, or undefined when the design is not drawn per line (its own artwork prints). */
export async function drawLine(
  render: Pick<RenderService, 'isRenderable' | 'renderLine'>,
  owner: { userId: number | null; siteId: number },
  design: Design,
  properties: Array<{ name: string; value: unknown }>,
  opts: { ownOrigin?: string } = {},
): Promise<DrawnLine | undefined> {
  if (!render.isRenderable(design)) return undefined;
  const out = await render.renderLine(owner, design, properties, { ownOrigin: opts.ownOrigin });
  // A missing property drew the field's sample: the job waits for a person to check it.
  const review = out.missing.length ? { needsReview: true as const, missingFields: out.missing } : {};
  return { artworkUrls: out.images, previewUrl: out.preview ?? design.image ?? null, data: { personalised: true, ...review } };
}
