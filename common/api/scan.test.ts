import { describe, expect, it } from 'vitest';
import { batchCode, copyCode, jobCode, parseSlugCode } from './scan';

describe('slug codes', () => {
  it('reads a copy, a job and a batch cover as a scanner or a person types them', () => {
    expect(parseSlugCode('PJ-17-2')).toEqual({ kind: 'job', jobId: 17, copy: 2 });
    expect(parseSlugCode(' pj-17\n')).toEqual({ kind: 'job', jobId: 17, copy: null });
    expect(parseSlugCode('\tPB-3 ')).toEqual({ kind: 'batch', number: 3 });
    expect(parseSlugCode(copyCode(4101, 4))).toEqual({ kind: 'job', jobId: 4101, copy: 4 });
    expect([jobCode(12), copyCode(12, 3), batchCode(3)]).toEqual(['PJ-12', 'PJ-12-3', 'PB-3']);
  });

  it('reads nothing else', () => {
    for (const text of ['', 'hello', 'PJ-', 'PJ 12', 'PJ-12-', 'PJ-12-3-1', 'xPJ-12', 'PJ-12x', 'PB-3-1', 'PJ-12 PJ-12', '12', 'PJ-1234567890123']) {
      expect(parseSlugCode(text), text).toBeNull();
    }
  });
});
