// The Design Info form's Buyer proof: read from the design's data.proof, sent back only when the
// design has or had its own say (null goes back to the site's PROOF_REQUIRED), other data kept.
import { describe, expect, it } from 'vitest';
import type { Design } from '../../../../common/api/printProduction';
import { designFormValues, toDesignInput } from './designForm';

const design = (data: Design['data']) => ({ id: 7, name: 'Card', sku: 'C1', isCustomizable: true, productPdf: null, productType: 'Card', stock: null, hpSKU: null, hpAdditionData: { attributes: [], stockItems: [] }, data }) as unknown as Design;

describe('the Buyer proof of a design', () => {
  it("reads the design's own say, or none (as the site says)", () => {
    expect(designFormValues(design({ proof: 'required' })).proof).toBe('required');
    expect(designFormValues(design({ proof: 'off' })).proof).toBe('off');
    expect(designFormValues(design({})).proof).toBe('');
    expect(designFormValues(design({ proof: 'sometimes' } as unknown as Design['data'])).proof).toBe('');
  });

  it('sends the choice; going back to the site sends null; a design that never had one sends none', () => {
    const chosen = { ...designFormValues(design({})), proof: 'off' as const };
    expect(toDesignInput(chosen, 7).data).toEqual({ proof: 'off' });
    const back = { ...designFormValues(design({ proof: 'required' })), proof: '' as const };
    expect(toDesignInput(back, 7).data).toEqual({ proof: null });
    expect(toDesignInput(designFormValues(design({})), 7).data).toBeUndefined();
  });

  it('keeps Consumes beside it', () => {
    const values = { ...designFormValues(design({ consumes: [{ stockItemId: 3, perUnit: 1 }] })), proof: 'required' as const };
    expect(toDesignInput(values, 7).data).toEqual({ consumes: [{ stockItemId: 3, perUnit: 1 }], proof: 'required' });
  });
});
