import { useEffect } from 'react';

export const PRODUCT_NAME = 'Presswork';

/** `document.title = "<Screen> | Presswork"` while the screen is shown. */
export function usePageTitle(screen: string): void {
  useEffect(() => {
    document.title = screen ? `${screen} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [screen]);
}
