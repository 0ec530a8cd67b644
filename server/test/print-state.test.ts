// The print job's state table (docs/print-production.md), as a pure function: every row, every refusal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors';
import {
  ALREADY_PRINTED,
  DOWNLOAD_FIRST,
  REPRINT_UNPRINTED,
  RESET_PRINTED,
  UNKNOWN_CHANGE,
  applyPrintJobChange,
  type PrintJobChange,
  type PrintJobState,
} from '../src/modules/print-jobs/state';

const NOW = '2026-11-22T10:00:00.000Z';
const EARLIER = '2026-11-20T09:00:00.000Z';
const USER = 7;

const base: PrintJobState = {
  isPrinted: false,
  isPDFDownloaded: false,
  isRePrinted: false,
  reprintCount: 0,
  downloadedAt: null,
  downloadedByUserId: null,
  printedAt: null,
  printedByUserId: null,
  printedByName: null,
  packedAt: null,
  packedByUserId: null,
  packedByName: null,
};
const STATES: Record<string, PrintJobState> = {
  new: base,
  downloaded: { ...base, isPDFDownloaded: true, downloadedAt: EARLIER, downloadedByUserId: 3 },
  printed: { ...base, isPDFDownloaded: true, isPrinted: true, downloadedAt: EARLIER, downloadedByUserId: 3, printedAt: EARLIER, printedByUserId: 3 },
  reprintQueued: { ...base, isRePrinted: true, reprintCount: 1, downloadedAt: EARLIER, downloadedByUserId: 3, printedAt: EARLIER, printedByUserId: 3 },
};

const DOWNLOAD = { isPDFDownloaded: true };
const PRINT = { isPrinted: true };
const RESET = { isPDFDownloaded: false, isPrinted: false };
const REPRINT = { isPDFDownloaded: false, isPrinted: false, isRePrinted: true };

function refusal(state: PrintJobState, change: PrintJobChange): HttpError {
  try {
    applyPrintJobChange(state, change, NOW, USER);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('expected the change to be refused');
}

describe('applyPrintJobChange: the allowed rows', () => {
  it.each(['new', 'downloaded', 'reprintQueued'])('%s + PDF downloaded → isPDFDownloaded, downloadedAt/by, event downloaded', (name) => {
    const { state, event } = applyPrintJobChange(STATES[name], DOWNLOAD, NOW, USER);
    expect(state).toEqual({ ...STATES[name], isPDFDownloaded: true, downloadedAt: NOW, downloadedByUserId: USER });
    expect(event).toBe('downloaded');
  });

  it.each(['new', 'downloaded', 'reprintQueued'])('%s + the server serving the PDF → downloaded', (name) => {
    const { state, event } = applyPrintJobChange(STATES[name], 'pdf-served', NOW, USER);
    expect(state.isPDFDownloaded).toBe(true);
    expect(state.isPrinted).toBe(false);
    expect(event).toBe('downloaded');
  });

  it('printed + the server serving the PDF again (from the history) → unchanged, nothing recorded', () => {
    expect(applyPrintJobChange(STATES.printed, 'pdf-served', NOW, USER)).toEqual({ state: STATES.printed, event: null });
  });

  it('downloaded + {isPrinted:true} → printed, printedAt = now, printed by the user', () => {
    const { state, event } = applyPrintJobChange(STATES.downloaded, PRINT, NOW, USER);
    expect(state).toEqual({ ...STATES.downloaded, isPrinted: true, printedAt: NOW, printedByUserId: USER });
    expect(event).toBe('printed');
  });

  it('{isPrinted:true, isPDFDownloaded:true} (both sent) is the same as marking printed', () => {
    expect(applyPrintJobChange(STATES.downloaded, { isPrinted: true, isPDFDownloaded: true }, NOW, USER).event).toBe('printed');
  });

  it.each(['new', 'downloaded', 'reprintQueued'])('%s + {isPDFDownloaded:false, isPrinted:false} (✗) → both false, event reset', (name) => {
    const { state, event } = applyPrintJobChange(STATES[name], RESET, NOW, USER);
    expect(state).toEqual({ ...STATES[name], isPDFDownloaded: false, isPrinted: false });
    expect(event).toBe('reset');
  });

  it('printed + Reprint → back in the queue: not downloaded, not printed, isRePrinted, reprintCount + 1', () => {
    const { state, event } = applyPrintJobChange(STATES.printed, REPRINT, NOW, USER);
    expect(state).toEqual({ ...STATES.printed, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintCount: 1 });
    expect(event).toBe('reprinted');
    const again = applyPrintJobChange({ ...state, isPDFDownloaded: true, isPrinted: true }, REPRINT, NOW, USER);
    expect(again.state.reprintCount).toBe(2);
  });

  it('{isRePrinted:true} alone also reprints', () => {
    expect(applyPrintJobChange(STATES.printed, { isRePrinted: true }, NOW, USER).event).toBe('reprinted');
  });
});

describe('applyPrintJobChange: everything else → 409 with the reason', () => {
  it.each([
    ['new', PRINT, DOWNLOAD_FIRST],
    ['reprintQueued', PRINT, DOWNLOAD_FIRST],
    ['printed', PRINT, ALREADY_PRINTED],
    ['printed', DOWNLOAD, ALREADY_PRINTED],
    ['printed', RESET, RESET_PRINTED],
    ['printed', { isPrinted: false }, RESET_PRINTED],
    ['new', REPRINT, REPRINT_UNPRINTED],
    ['downloaded', REPRINT, REPRINT_UNPRINTED],
    ['reprintQueued', REPRINT, REPRINT_UNPRINTED],
  ] as const)('%s + %j → 409 "%s"', (name, change, message) => {
    const err = refusal(STATES[name], change);
    expect(err.status).toBe(409);
    expect(err.message).toBe(message);
  });

  it('the exact texts', () => {
    expect(ALREADY_PRINTED).toBe('This job is already printed');
    expect(DOWNLOAD_FIRST).toBe('Download the PDF before marking the job printed');
  });

  it.each([
    [{}],
    [{ isRePrinted: false }],
    [{ isPrinted: true, isPDFDownloaded: false }],
    [{ isPrinted: true, isRePrinted: true }],
    [{ isPDFDownloaded: true, isRePrinted: true }],
  ])('a set of flags that is no known change (%j) → 409', (change) => {
    for (const state of Object.values(STATES)) {
      const err = refusal(state, change);
      expect(err.status).toBe(409);
      expect(err.message).toBe(UNKNOWN_CHANGE);
    }
  });

  it('a refused change does not touch the job given', () => {
    const job = { ...STATES.printed };
    refusal(job, PRINT);
    expect(job).toEqual(STATES.printed);
  });
});

describe('applyPrintJobChange: properties over any sequence of changes', () => {
  const change = fc.constantFrom<PrintJobChange>(DOWNLOAD, PRINT, RESET, REPRINT, 'pdf-served', { isPrinted: false }, { isRePrinted: true });

  it('a job is printed only after a download since it was last reset or reprinted; reprintCount counts reprints; printing twice is always refused', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 40 }), (changes) => {
        let job = base;
        let downloadedSinceReset = false;
        let reprints = 0;
        for (const c of changes) {
          let result;
          try {
            result = applyPrintJobChange(job, c, NOW, USER);
          } catch (err) {
            expect((err as HttpError).status).toBe(409);
            continue;
          }
          if (result.event === 'downloaded') downloadedSinceReset = true;
          if (result.event === 'reset' || result.event === 'reprinted') downloadedSinceReset = false;
          if (result.event === 'reprinted') reprints++;
          if (result.event === 'printed') {
            expect(job.isPrinted).toBe(false);
            expect(downloadedSinceReset).toBe(true);
          }
          job = result.state;
          expect(job.reprintCount).toBe(reprints);
          if (job.isPrinted) expect(job.isPDFDownloaded).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
