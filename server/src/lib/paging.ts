// Page-number paging of the product API (lists start at page 1).
export const PAGE_SIZE = 20;

export function pageWindow(page: number | undefined, pageSize = PAGE_SIZE) {
  const p = Math.max(1, Math.floor(page ?? 1));
  return { page: p, limit: pageSize, offset: (p - 1) * pageSize };
}
