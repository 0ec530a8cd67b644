import { lazy, Suspense, useMemo } from 'react';
import { BrowserRouter, Route } from 'react-router-dom';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { AccessDeniedMessage } from './components/AccessDeniedMessage';
import { Layout } from './layout/Layout';
import { LoadingScreen } from './layout/LoadingScreen';
import { SiteInfoProvider, useSiteInfo } from './layout/SiteInfoContext';
import { buildTheme } from './layout/theme';
import { LoginPage } from './pages/login/LoginPage';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import sites from './resources/sites';

const HomePage = lazy(() => import('./pages/home/HomePage'));
// Print production screens (issue 3): each loads on first visit, outside the initial bundle.
const PrintJobsPage = lazy(() => import('./pages/print-jobs/PrintJobsPage'));
const PrintHistoryPage = lazy(() => import('./pages/print-history/PrintHistoryPage'));
const PrintReportsPage = lazy(() => import('./pages/reports/PrintReportsPage'));
const DesignsPage = lazy(() => import('./pages/designs/DesignsPage'));
const DesignPage = lazy(() => import('./pages/design/DesignPage'));
const SampleUploadPage = lazy(() => import('./pages/sample-uploading/SampleUploadPage'));

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
      <CustomRoutes>
        <Route path="/print-jobs" element={<PrintJobsPage />} />
        <Route path="/print-history" element={<PrintHistoryPage />} />
        <Route path="/reports" element={<PrintReportsPage />} />
        <Route path="/designs" element={<DesignsPage />} />
        <Route path="/design/:id" element={<DesignPage />} />
        <Route path="/sample-uploading" element={<SampleUploadPage />} />
      </CustomRoutes>
    </Admin>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <SiteInfoProvider>
        <Suspense fallback={<LoadingScreen />}>
          <PressworkAdmin />
        </Suspense>
      </SiteInfoProvider>
    </BrowserRouter>
  );
}

export default App;
