import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/raleway/400.css';
import '@fontsource/raleway/500.css';
import '@fontsource/raleway/600.css';
import '@fontsource/raleway/700.css';
import { App, prefetchCurrentPageData, preloadCurrentPage } from './App';
import { startEarlyKeys } from './lib/earlyKeys';
import { prefetchSession } from './providers/authProvider';

// A scanner at the scan station types as soon as the page shows: its keys are kept until the station is ready.
startEarlyKeys();

// A cold load of a deep link: check the session, ask for the branding and the screen's first data, and
// fetch the screen's code, all while the shell starts.
prefetchSession();
prefetchCurrentPageData(window.location.pathname);
preloadCurrentPage(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
