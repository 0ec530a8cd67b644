// The product API's envelopes (spec §7), as the server sends them and the admin reads them.

/** A record id as the API sends it. */
export type RecordId = number;

/** An id the admin passes back (from a record, or a route parameter as text). */
export type Id = number | string;

/** Every JSON answer: {success, data, error}; a refusal may carry errorMes or details. */
export interface Envelope<T> {
  success: boolean;
  data?: T;
  /** A refusal's sentence, for a person. */
  error?: string;
  /** A refusal about input: the key of the first failing field (`firstName`, `settings.env.0.key`). */
  field?: string;
  /** Input refusals: FieldProblem[] (every failing field and its sentence); other refusals: their own data. */
  details?: unknown;
}

/** One failing input of a 400: its key, and the sentence shown next to it. */
export interface FieldProblem {
  field?: string;
  message: string;
}

/** A page of a list (`data: {list, hasNext, total}`). */
export interface ListPage<T> {
  list: T[];
  hasNext: boolean;
  total: number;
}

/** A page of the general-data list call: the list is data.data (spec §7). */
export interface DataPage<T> {
  data: T[];
  hasNext: boolean;
  total: number;
  /** The count stopped at a cap: `total` is a lower bound. */
  totalIsCapped?: boolean;
  page?: number;
}
