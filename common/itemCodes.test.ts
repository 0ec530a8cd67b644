import { describe, expect, it } from 'vitest';
import { readItemCode } from './itemCodes';

describe('readItemCode', () => {
  it('reads a job, a copy of a job and a batch, in any case, with spaces around', () => {
    expect(readItemCode('PJ-12')).toEqual({ kind: 'job', jobId: 12, copy: null });
    expect(readItemCode(' pj-78-3\n')).toEqual({ kind: 'job', jobId: 78, copy: 3 });
    expect(readItemCode('PB-3')).toEqual({ kind: 'batch', number: 3 });
    expect(readItemCode('pb-12')).toEqual({ kind: 'batch', number: 12 });
  });

  it('anything else is not a code', () => {
    for (const text of ['PJ-', 'PJ-0', 'PJ-12-0', 'PB-3-1', 'PX-100', 'PJ 12', 'PJ-12a', '12', 'PJ-99999999999', '']) expect(readItemCode(text), text).toBeNull();
  });
});
