import { Suspense, useMemo, useState } from 'react';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { AccessDeniedMessage } from './components/AccessDeniedMessage';
import { Layout } from './layout/Layout';
import { LoadingScreen } from './layout/LoadingScreen';
import { lazyPage, preloadPageFor } from './lib/lazyPage';
import { SiteInfoProvider, useSiteInfo } from './layout/SiteInfoContext';
import { buildTheme } from './layout/theme';
import { LoginPage } from './pages/login/LoginPage';
import { authProvider } from './providers/authProvider';
import { prefetchGet } from './providers/api';
import { dataProvider, jobsScreenFirstPaths } from './providers/dataProvider';
import { getToken } from './providers/session';
import instances from './resources/instances';
import products from './resources/products';
import resellers from './resources/resellers';
import sites from './resources/sites';
import stores from './resources/stores';
import stockItems from './resources/stock-items';

const HomePage = lazyPage(() => import('./pages/home/HomePage'));
const AttentionPage = lazyPage(() => import('./pages/attention/AttentionPage'));
const ManualPage = lazyPage(() => import('./pages/manual/ManualPage'));
// Print production screens: each loads on first visit, outside the initial bundle.
const PrintJobsPage = lazyPage(() => import('./pages/print-jobs/PrintJobsPage'));
const PrintHistoryPage = lazyPage(() => import('./pages/print-history/PrintHistoryPage'));
const BatchesPage = lazyPage(() => import('./pages/batches/BatchesPage'));
const BatchPage = lazyPage(() => import('./pages/batches/BatchPage'));
const PrintReportsPage = lazyPage(() => import('./pages/reports/PrintReportsPage'));
const ScanStationPage = lazyPage(() => import('./pages/scan/ScanStationPage'));
const DesignsPage = lazyPage(() => import('./pages/designs/DesignsPage'));
const DesignPage = lazyPage(() => import('./pages/design/DesignPage'));
const SampleUploadPage = lazyPage(() => import('./pages/sample-uploading/SampleUploadPage'));
// The design editor (framed by the Design screen) and the sample editor: lazy, outside the main bundle.
const EditorPage = lazyPage(() => import('./pages/editor/EditorPage'));
const SampleEditorPage = lazyPage(() => import('./pages/sample-editor/SampleEditorPage'));
const SampleEditorEmbedPage = lazyPage(() => import('./pages/sample-editor/SampleEditorEmbedPage'));
// Orders and fulfilment screens.
const OrdersPage = lazyPage(() => import('./pages/orders/OrdersPage'));
const AllOrdersPage = lazyPage(() => import('./pages/orders/OrdersPage').then((m) => ({ default: m.AllOrdersPage })));
const CheckOrderPage = lazyPage(() => import('./pages/check-order/CheckOrderPage'));
const HpDataPage = lazyPage(() => import('./pages/hp-data/HpDataPage'));
const SendHpManuallyPage = lazyPage(() => import('./pages/send-hp-manually/SendHpManuallyPage'));
// CRM ↔ email-platform sync.
const SyncPage = lazyPage(() => import('./pages/re-n-adestra-sync/SyncPage'));
// The demo's caught e-mails (outside production).
const CaughtEmailsPage = lazyPage(() => import('./pages/caught-emails/CaughtEmailsPage'));
// The history (audit trail), admins.
const HistoryPage = lazyPage(() => import('./pages/history/HistoryPage'));
const RoutingPage = lazyPage(() => import('./pages/routing/RoutingPage'));
// The API reference (the server's OpenAPI document), admins.
const ApiReferencePage = lazyPage(() => import('./pages/api-reference/ApiReferencePage'));
// The printers' colour profiles, admins.
const PrintProfilesPage = lazyPage(() => import('./pages/print-profiles/PrintProfilesPage'));

/** Each screen's path, so a cold load of a deep link fetches that screen's code at once (main.tsx). */
const PAGE_ROUTES = [
  [/^\/$/, HomePage],
  [/^\/attention\/?$/, AttentionPage],
  [/^\/manual\/?$/, ManualPage],
  [/^\/print-jobs\/?$/, PrintJobsPage],
  [/^\/batches\/?$/, BatchesPage],
  [/^\/batches\/[^/]+\/?$/, BatchPage],
  [/^\/print-history\/?$/, PrintHistoryPage],
  [/^\/reports\/?$/, PrintReportsPage],
  [/^\/scan\/?$/, ScanStationPage],
  [/^\/designs\/?$/, DesignsPage],
  [/^\/design\/[^/]+\/?$/, DesignPage],
  [/^\/sample-uploading\/?$/, SampleUploadPage],
  [/^\/sample-editor\/?$/, SampleEditorPage],
  [/^\/orders\/?$/, OrdersPage],
  [/^\/all-orders\/?$/, AllOrdersPage],
  [/^\/check-order\/?$/, CheckOrderPage],
  [/^\/hp-data\/?$/, HpDataPage],
  [/^\/send-hp-manually\/?$/, SendHpManuallyPage],
  [/^\/re-n-adestra-sync\/?$/, SyncPage],
  [/^\/caught-emails\/?$/, CaughtEmailsPage],
  [/^\/history\/?$/, HistoryPage],
  [/^\/routing\/?$/, RoutingPage],
  [/^\/api-reference\/?$/, ApiReferencePage],
  [/^\/print-profiles\/?$/, PrintProfilesPage],
  [/^\/editor\/?$/, EditorPage],
  [/^\/sample-editor-embed\/?$/, SampleEditorEmbedPage],
] as const;

/** The first data calls of a screen, by path: on a cold load they start with the code (main.tsx). */
const PAGE_DATA: ReadonlyArray<readonly [RegExp, () => string[]]> = [[/^\/print-jobs\/?$/, jobsScreenFirstPaths]];

export function preloadCurrentPage(pathname: string): void {
  preloadPageFor(pathname, PAGE_ROUTES);
}

/**
 * Starts the calls every signed-in screen waits for (the site's branding) and the current screen's
 * first data calls, before React has rendered anything: the shell then finds them answered.
 */
export function prefetchCurrentPageData(pathname: string): void {
  // The sign-in page asks for the branding of its ?site= (SiteInfoProvider).
  if (pathname !== '/login') prefetchGet('/api/sites/info');
  if (!getToken()) return;
  for (const [pattern, paths] of PAGE_DATA) if (pattern.test(pathname)) paths().forEach(prefetchGet);
}

function PressworkAdmin() {
  const { site, loading } = useSiteInfo();
  const theme = useMemo(() => buildTheme(site?.theme?.mainColor), [site?.theme?.mainColor]);
  // Wait for the first site-info answer so the site's colours show from the first paint.
  if (loading && !site) return <LoadingScreen />;
  return (
    <Admin
      title="Presswork"
      disableTelemetry
      authProvider={authProvider}
      dataProvider={dataProvider}
      loginPage={LoginPage}
      dashboard={HomePage}
      layout={Layout}
      theme={theme}
      loading={LoadingScreen}
      accessDenied={AccessDeniedMessage}
    >
      <Resource name="sites" {...sites} />
      <Resource name="users" recordRepresentation={(u: { email?: string }) => u.email ?? ''} />
      <Resource name="stores" {...stores} />
      <Resource name="stock-items" {...stockItems} />
      <Resource name="products" {...products} />
      <Resource name="resellers" {...resellers} />
      <Resource name="instances" {...instances} />
      <CustomRoutes>
        <Route path="/attention" element={<AttentionPage />} />
        <Route path="/manual" element={<ManualPage />} />
        <Route path="/print-jobs" element={<PrintJobsPage />} />
        <Route path="/batches" element={<BatchesPage />} />
        <Route path="/batches/:id" element={<BatchPage />} />
        <Route path="/print-history" element={<PrintHistoryPage />} />
        <Route path="/reports" element={<PrintReportsPage />} />
        <Route path="/scan" element={<ScanStationPage />} />
        <Route path="/designs" element={<DesignsPage />} />
        <Route path="/design/:id" element={<DesignPage />} />
        <Route path="/sample-uploading" element={<SampleUploadPage />} />
        <Route path="/sample-editor" element={<SampleEditorPage />} />
        <Route path="/orders" element={<OrdersPage />} />
        <Route path="/all-orders" element={<AllOrdersPage />} />
        <Route path="/check-order" element={<CheckOrderPage />} />
        <Route path="/hp-data" element={<HpDataPage />} />
        <Route path="/send-hp-manually" element={<SendHpManuallyPage />} />
        <Route path="/re-n-adestra-sync" element={<SyncPage />} />
        <Route path="/caught-emails" element={<CaughtEmailsPage />} />
        <Route path="/history" element={<HistoryPage />} />
        <Route path="/routing" element={<RoutingPage />} />
        <Route path="/api-reference" element={<ApiReferencePage />} />
        <Route path="/print-profiles" element={<PrintProfilesPage />} />
      </CustomRoutes>
      {/* Pages shown inside frames: no header or menu. */}
      <CustomRoutes noLayout>
        <Route path="/editor" element={<EditorPage />} />
        <Route path="/sample-editor-embed" element={<SampleEditorEmbedPage />} />
      </CustomRoutes>
    </Admin>
  );
}

function Root() {
  return (
    <SiteInfoProvider>
      <Suspense fallback={<LoadingScreen />}>
        <PressworkAdmin />
      </Suspense>
    </SiteInfoProvider>
  );
}

// A data router (react-admin's documented setup for a router of one's own): forms can then block
// a navigation that would drop typed edits (warnWhenUnsavedChanges needs useBlocker).
// Location changes commit at once, not as transitions: react-admin's sign-out redirect clears its
// queries, which re-renders the signed-out screen urgently; a transition to /login kept being
// restarted by that (each render signing out again) and Back after sign-out showed "Loading..."
// for seconds before the sign-in form.
export function App() {
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <Root /> }]));
  return <RouterProvider router={router} useTransitions={false} />;
}

export default App;
