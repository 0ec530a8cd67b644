import type { Id } from '../../../../common/api/envelope';
import { type Design, type DesignAttribute, type DesignInput, type DesignProof, type DesignStockItem, DESIGN_PROOFS, designProofOf, PRODUCT_TYPES, type ProductType } from '../../../../common/api/printProduction';
import { NEW_DESIGN_NAME } from '../../providers/printProduction';
import { stockUsesOf, type StockUse } from '../../../../common/api/stock';

/** What the Design Info form edits. */
export interface DesignFormValues {
  name: string;
  sku: string;
  productType: ProductType | '' | null;
  stock: string;
  isCustomizable: boolean;
  productPdf: string;
  hpSKU: string;
  hpAdditionData: {
    attributes: Partial<DesignAttribute>[];
    stockItems: { code?: string; name?: string; quantity?: number | string | null }[];
    componentCode?: string | null;
  };
  /** The stock one unit takes (Setup → Stock items). */
  consumes: { stockItemId?: Id | null; perUnit?: number | string | null }[];
  /** The design had a Consumes list when opened (so emptying it is sent). */
  hadConsumes?: boolean;
  /** Buyer proofs for its lines: '' as the site says (PROOF_REQUIRED), or the design's own say. */
  proof: DesignProof | '';
  /** The design had its own say when opened (so going back to the site's is sent). */
  hadProof?: boolean;
}

/** The Buyer proof choices (none chosen: as the site says). */
export const PROOF_AS_SITE = "As the site says (its PROOF_REQUIRED)";
export const PROOF_CHOICES: Array<{ id: DesignProof; name: string }> = [
  { id: 'required', name: 'Always: the buyer approves a proof first' },
  { id: 'off', name: 'Never: made without a proof' },
];

/** A new design is "Untitled design" and customizable (spec §9). */
export function designFormValues(design: Design | null | undefined): DesignFormValues {
  return {
    name: design?.name ?? NEW_DESIGN_NAME,
    sku: design?.sku ?? '',
    productType: design?.productType ?? '',
    stock: design?.stock ?? '',
    isCustomizable: design ? Boolean(design.isCustomizable) : true,
    productPdf: design?.productPdf ?? '',
    hpSKU: design?.hpSKU ?? '',
    hpAdditionData: {
      attributes: design?.hpAdditionData?.attributes?.map((a) => ({ ...a })) ?? [],
      stockItems: design?.hpAdditionData?.stockItems?.map((s) => ({ ...s })) ?? [],
      componentCode: design?.hpAdditionData?.componentCode ?? '',
    },
    consumes: stockUsesOf(design?.data).map((u) => ({ ...u })),
    hadConsumes: stockUsesOf(design?.data).length > 0,
    proof: designProofOf(design?.data) ?? '',
    hadProof: designProofOf(design?.data) !== null,
  };
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value === null || value === undefined ? '' : String(value));

/** The `POST /api/designs` body for the form's values; `id` is absent for a new design. */
export function toDesignInput(values: DesignFormValues, id?: Id): DesignInput {
  const productType = PRODUCT_TYPES.includes(values.productType as ProductType) ? (values.productType as ProductType) : null;
  const attributes: DesignAttribute[] = (values.hpAdditionData?.attributes ?? [])
    .map((a) => ({ name: trimmed(a?.name), value: trimmed(a?.value) }))
    .filter((a) => a.name || a.value);
  const stockItems: DesignStockItem[] = (values.hpAdditionData?.stockItems ?? [])
    .map((s) => ({ code: trimmed(s?.code), name: trimmed(s?.name), quantity: Number(s?.quantity ?? 0) || 0 }))
    .filter((s) => s.code || s.name);
  const consumes: StockUse[] = (values.consumes ?? [])
    .map((c) => ({ stockItemId: Number(c?.stockItemId), perUnit: Number(c?.perUnit) }))
    .filter((c) => c.stockItemId > 0 && c.perUnit > 0);
  const proof = (DESIGN_PROOFS as readonly string[]).includes(values.proof ?? '') ? (values.proof as DesignProof) : null;
  return {
    ...(id !== undefined ? { id } : {}),
    // Sent when there is something to say (a list, or one cleared): other data keys are kept by the server.
    ...(consumes.length || (values.consumes ?? []).length || values.hadConsumes || proof || values.hadProof
      ? { data: { ...(consumes.length || (values.consumes ?? []).length || values.hadConsumes ? { consumes } : {}), ...(proof || values.hadProof ? { proof: proof || null } : {}) } }
      : {}),
    name: trimmed(values.name) || NEW_DESIGN_NAME,
    isCustomizable: Boolean(values.isCustomizable),
    sku: trimmed(values.sku),
    productPdf: trimmed(values.productPdf),
    productType,
    stock: trimmed(values.stock),
    hpSKU: trimmed(values.hpSKU),
    // Empty clears it: the provider then gets its default component, Content.
    hpAdditionData: { attributes, stockItems, componentCode: trimmed(values.hpAdditionData?.componentCode) },
  };
}
