// The admin UI's pages, by the first segment of their path: the server answers index.html for
// these (deep links like /design/3 or /check-order?id=…) and a 404 for any other path, so a
// monitor probing /healthz or a stale /assets/… file is never told 200 with the UI's HTML.
// Every <Route path> and <Resource name> of admin/src/App.tsx must be listed (a server test checks).
export const UI_PAGE_ROOTS: readonly string[] = [
  // react-admin's own pages, and the resources it routes (/sites, /sites/3, /sites/create…)
  'login',
  'sites',
  'users',
  'stores',
  'products',
  'resellers',
  'instances',
  'stock-items',
  // custom pages
  'attention',
  'manual',
  'print-jobs',
  'batches',
  'print-history',
  'reports',
  'scan',
  'designs',
  'design',
  'sample-uploading',
  'sample-editor',
  'orders',
  'all-orders',
  'check-order',
  'hp-data',
  'send-hp-manually',
  're-n-adestra-sync',
  'caught-emails',
  'history',
  'api-reference',
  'print-profiles',
  'routing',
  // pages shown inside frames
  'editor',
  'sample-editor-embed',
];

/** Whether `path` (no query) is a page of the admin UI: `/` or under one of UI_PAGE_ROOTS. */
export function isUiPage(path: string): boolean {
  const first = path.split('/')[1] ?? '';
  return first === '' ? path === '/' || path === '' : UI_PAGE_ROOTS.includes(first);
}
