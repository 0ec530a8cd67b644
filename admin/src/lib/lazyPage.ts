import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type LazyPage = LazyExoticComponent<ComponentType> & {
  /** Starts loading the page's code (once); React.lazy then renders from the same import. */
  preload: () => Promise<unknown>;
};

/** React.lazy for a screen whose code can also be fetched ahead of its first render (see preloadPageFor). */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const preload = () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined; // a later preload tries again
      throw error;
    });
    return pending;
  };
  return Object.assign(lazy(preload), { preload });
}

/**
 * The screen of `pathname` among `routes` ([path pattern, page]), if any, starts loading now: on a
 * cold load of a deep link its code then arrives while the app shell fetches the site's branding and
 * checks the session, instead of after them.
 */
export function preloadPageFor(pathname: string, routes: ReadonlyArray<readonly [RegExp, LazyPage]>): void {
  const hit = routes.find(([pattern]) => pattern.test(pathname));
  hit?.[1].preload().catch(() => undefined);
}
