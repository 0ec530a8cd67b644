// The product type of each design SKU (Card, Mug, Poster, E-card), read once and kept a few minutes.
import { useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { AppDataProvider } from '../providers/dataProvider';

export function useProductTypes(): Map<string, string> {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({
    queryKey: ['designs', 'all-with-product-type'],
    queryFn: () => dataProvider.getProductTypes(),
    staleTime: 5 * 60_000,
  });
  return useMemo(() => {
    const bySku = new Map<string, string>();
    for (const { sku, productType } of data ?? []) if (sku && productType && !bySku.has(sku)) bySku.set(sku, productType);
    return bySku;
  }, [data]);
}
