import { defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { deepmerge } from '@mui/utils';
import { isHexColour } from '../lib/format';

export const DEFAULT_MAIN_COLOUR = '#E91E63'; // pink
export const APP_BAR_HEIGHT = '55.3px';
export const SIDEBAR_WIDTH = 188;

/** Pink (or the site's main colour) with blue, yellow, green and grey accents; Raleway everywhere. */
export function buildTheme(mainColour?: string | null): RaThemeOptions {
  const primary = isHexColour(mainColour) ? mainColour : DEFAULT_MAIN_COLOUR;
  return deepmerge(defaultLightTheme, {
    palette: {
      primary: { main: primary },
      secondary: { main: '#2196F3' }, // blue
      info: { main: '#03A9F4' },
      warning: { main: '#FFC107' }, // yellow
      success: { main: '#4CAF50' }, // green
      background: { default: '#F5F5F5' }, // grey
    },
    typography: {
      fontFamily: 'Raleway, "Helvetica Neue", Arial, sans-serif',
    },
    sidebar: { width: SIDEBAR_WIDTH, closedWidth: 55 },
    components: {
      RaLoading: {
        styleOverrides: { root: { '& .RaLoading-message': { fontFamily: 'Raleway, sans-serif' } } },
      },
    },
  } satisfies RaThemeOptions);
}
