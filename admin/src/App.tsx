import { lazy, Suspense, useMemo } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { Admin, Resource } from 'react-admin';
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
