import { Suspense, type ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { LoadingScreen } from './LoadingScreen';
import { Menu } from './Menu';
import { AttentionProvider } from '../pages/attention/useAttention';
import { APP_BAR_HEIGHT } from './theme';

export function Layout({ children }: { children: ReactNode }) {
  return (
    // One Needs attention poll for the menu's badges and the page.
    <AttentionProvider>
      <RaLayout
        appBar={AppBar}
        menu={Menu}
        appBarAlwaysOn
        sx={{
          '& .RaLayout-appFrame': { marginTop: APP_BAR_HEIGHT },
          // The page never scrolls sideways (react-admin sizes the layout to fit its widest content):
          // what is wider than the screen scrolls inside the content box, under a full-width app bar.
          minWidth: 0,
          '& .RaLayout-content': { minWidth: 0, overflowX: 'auto' },
          '@media (max-width: 599.95px)': { '& .RaLayout-appFrame': { marginTop: APP_BAR_HEIGHT } },
        }}
      >
        <Suspense fallback={<LoadingScreen />}>{children}</Suspense>
      </RaLayout>
    </AttentionProvider>
  );
}

export default Layout;
