// Reprint with a reason: why a printed job goes back to the queue and whose fault it was. The
// server validates with these lists, the admin shows their labels, the reports count by them.

export const REPRINT_REASONS = ['printDefect', 'transitDamage', 'customerError', 'addressError', 'lostInPost', 'fileDefect', 'other'] as const;
export type ReprintReason = (typeof REPRINT_REASONS)[number];

export const REPRINT_REASON_LABELS: Record<ReprintReason, string> = {
  printDefect: 'Print defect',
  transitDamage: 'Damaged in transit',
  customerError: 'Customer error',
  addressError: 'Address error',
  lostInPost: 'Lost in post',
  fileDefect: 'File defect',
  other: 'Other',
};

export const REPRINT_RESPONSIBLES = ['shop', 'customer', 'carrier', 'provider'] as const;
export type ReprintResponsible = (typeof REPRINT_RESPONSIBLES)[number];

export const REPRINT_RESPONSIBLE_LABELS: Record<ReprintResponsible, string> = {
  shop: 'Shop',
  customer: 'Customer',
  carrier: 'Carrier',
  provider: 'Provider',
};

/** The longest reprint note, in characters (required when the reason is `other`). */
export const REPRINT_NOTE_MAX = 500;

/** What a reprint call carries beside its flags (`POST /api/print-jobs` with `isRePrinted`, the bulk `reprint`). */
export interface ReprintWhy {
  reprintReason: ReprintReason;
  reprintResponsible: ReprintResponsible;
  reprintNote?: string | null;
}

/** One reprint of a job, linked to the print it replaces (that print's time and printer). */
export interface Reprint {
  reason: ReprintReason;
  responsible: ReprintResponsible;
  note: string | null;
  at: string;
  byUserId: number | null;
  byName: string | null;
  originalPrintedAt: string | null;
  originalPrintedByName: string | null;
}

/** "Reprint: Print defect (shop)", or with the operator's words for Other: "Reprint: Other — smudged logo (shop)". */
export function reprintLine(r: Pick<Reprint, 'reason' | 'responsible' | 'note'>): string {
  const reason = r.reason === 'other' && r.note ? `Other — ${r.note}` : REPRINT_REASON_LABELS[r.reason];
  return `Reprint: ${reason} (${REPRINT_RESPONSIBLE_LABELS[r.responsible].toLowerCase()})`;
}
