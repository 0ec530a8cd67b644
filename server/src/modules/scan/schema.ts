import { z } from 'zod';

/** POST /api/scan: what the scanner typed (a USB scanner is a keyboard: the code, maybe a newline). */
export const scanBody = z.object({
  code: z.string({ error: "is required: scan an item's barcode" }).max(200, 'is too long for a barcode (200 characters at most)').refine((v) => v.trim() !== '', "is required: scan an item's barcode"),
});

export type ScanInput = z.infer<typeof scanBody>;
