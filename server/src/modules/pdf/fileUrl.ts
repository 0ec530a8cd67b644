// Which artwork, preview and PDF addresses may be stored: the artwork fetcher's rules, at the door.
import { z } from 'zod';
import { storedUrlProblem } from './artwork';

/** Loopback, private, link-local and metadata addresses are refused before anything is stored. */
function refuseInsideAddresses(v: string, ctx: z.RefinementCtx): void {
  const problem = storedUrlProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

export const isFileUrl = (v: string) => /^https?:\/\/[^\s]+$/i.test(v) || /^\/files\/[^\s]+$/.test(v);

/** An artwork, preview or PDF address: our own /files/… storage or an http(s) URL. */
export const fileUrl = z
  .string({ error: 'must be a URL' })
  .trim()
  .max(2048, 'is too long (2048 characters at most)')
  .refine(isFileUrl, 'must be an http(s) URL or an uploaded /files/… address')
  .superRefine(refuseInsideAddresses);

/** The same, where '' and null mean "none". */
export const optionalFileUrl = z.preprocess((v) => (v === '' ? null : v), fileUrl.nullable()).optional();
