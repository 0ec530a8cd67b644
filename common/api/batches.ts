// Batches of print jobs printed together on press sheets: the records the server answers and the
// admin's Batches screens read (/api/batches).
import type { BulkRefusal } from './bulk';
import type { RecordId } from './envelope';
import type { PrintJob } from './printProduction';

/** The floor's states of a batch, in the only order it moves through them. */
export const BATCH_STATES = ['open', 'printed', 'cut', 'packed'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

/** The most jobs one batch takes (a day's cards on one cover sheet). */
export const MAX_BATCH_JOBS = 500;

/** What every item of a batch is: one product type at one finished size (its print file's TrimBox and bleed). */
export interface BatchItem {
  productType: string;
  trimWidthMm: number;
  trimHeightMm: number;
  bleedMm: number;
}

/** One move of a batch, from its history: who moved it into `state`, and when. */
export interface BatchMove {
  state: BatchState;
  at: string;
  byName: string | null;
}

export interface Batch {
  id: RecordId;
  siteId: RecordId;
  /** Counted per site from 1: "batch 12" on the floor and on the cover sheet. */
  number: number;
  state: BatchState;
  /** The press sheet's name (SRA3, A4, …). */
  sheet: string;
  /** In the order they are imposed. */
  jobIds: RecordId[];
  createdAt: string;
  createdByName: string | null;
  stateChangedAt: string;
  stateChangedByName: string | null;
  /** The items' product and size; null when every job has left the batch. */
  item?: BatchItem | null;
  /** The site's name (admins see every site's batches). */
  siteName?: string | null;
  /** Made by the automatic batching rule rather than by hand. */
  auto?: boolean;
  /** An automatic batch still taking jobs: it closes when full or at the site's cut-off. */
  filling?: boolean;
  /** When a filling batch closes at the latest (ISO time, or HH:MM). */
  closesAt?: string | null;
  stock?: string | null;
  closedAt?: string | null;
  closeReason?: string | null;
  /** Each move with who made it, oldest first (a batch's own read and its move's answer; lists leave it out). */
  moves?: BatchMove[];
  // A batch's own read and its move's answer also carry what its page shows of its sheets:
  /** The cover's barcode text (`PB-<number>`) and that barcode as an SVG image. */
  code?: string;
  barcodeSvg?: string;
  /** Press sheets the sheets' file holds now (its jobs still to print); null when none is left. */
  sheetCount?: number | null;
  /** How the sheets' file is printed (two-sided and the edge to flip on, or one-sided), as its cover says. */
  howToPrint?: string | null;
  /** Jobs of the batch that are not on its sheets any more (they left the queue after it was made), and why. */
  leftOut?: BatchLeftOutJob[];
}

/** A job of a batch that its sheets leave out: it was cancelled, withdrawn, held, printed elsewhere or moved to HP since. */
export interface BatchLeftOutJob {
  jobId: RecordId;
  orderName: string | null;
  productName: string;
  /** The sentence its own download would be refused with. */
  reason: string;
}

/** `GET /api/batches/:id/pdf/progress?key=`: how far the sheets asked for with `?progress=<key>` are. */
export interface BatchSheetsProgress {
  jobsDone: number;
  jobs: number;
  /** Sheets begun so far. */
  sheets: number;
  /** The file is written (it is on its way to the browser). */
  finished: boolean;
}

/** What marking a batch printed did to its jobs (each through the print-job rules). */
export interface BatchPrintedReport {
  done: number[];
  refused: BulkRefusal[];
}

/** `POST /api/batches/:id/state`: the batch as it is now, and for `printed` what happened to its jobs. */
export type BatchMoved = Batch & { printed?: BatchPrintedReport; packed?: BatchPrintedReport };

/** One job of a batch as its page lists it; `job` is null when the job was deleted. */
export interface BatchJob {
  jobId: RecordId;
  job: PrintJob | null;
  /** Its place among its order's items made in house ("2 of 3"); null without a store order. */
  itemNumber: number | null;
  itemCount: number | null;
  /** Copies packed at the bench so far (all of them once the job is packed). */
  packedCopies: number;
}

/** A press sheet the floor prints on. */
export interface PressSheet {
  name: string;
  widthMm: number;
  heightMm: number;
  marginMm: number;
}

/** `GET /api/batches/sheets`: the sheets a batch of the caller's site can be imposed on, and how. */
export interface ImpositionSheets {
  sheets: PressSheet[];
  gapMm: number;
  slugMm: number;
  duplex: 'turn' | 'tumble';
}

/** The file name of a batch's imposed sheets. */
export const batchPdfFileName = (number: number): string => `batch-${number}.pdf`;
