// A cold load of a screen's address fetches that screen's code (a lazy chunk and the shared chunks it
// imports) with the app's own code, not after it: the app starts the screen's import only once its
// ~1 MB of initial JavaScript has run (main.tsx), and a screen such as Jobs then waits for some
// thirty small chunks. Here the build writes route-preload.js, a small classic script that index.html
// runs first: for the address it adds <link rel="modulepreload"> for its screen's chunks, so the
// browser fetches them while it still parses and runs the initial ones. Other addresses preload
// nothing more. (A script file, not inline: the server's Content-Security-Policy allows 'self' only.)
import type { Plugin } from 'vite';

export const ROUTE_PRELOAD_FILE = 'route-preload.js';

/** [address pattern, the screen's module, relative to admin/]: the screens whose chunks load with the app's. */
export type RoutePreloads = ReadonlyArray<readonly [RegExp, string]>;

interface OutChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

export function routePreload(routes: RoutePreloads): Plugin {
  return {
    name: 'presswork:route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { src: `/${ROUTE_PRELOAD_FILE}` }, injectTo: 'body' }],
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is typeof c & OutChunk => c.type === 'chunk') as OutChunk[];
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[], seen = new Set<string>()) => {
        const pending = [...start];
        while (pending.length) {
          const file = pending.pop()!;
          if (seen.has(file) || !byFile.has(file)) continue;
          seen.add(file);
          pending.push(...byFile.get(file)!.imports);
        }
        return seen;
      };
      // What index.html loads anyway.
      const initial = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const map: Array<[string, string[]]> = routes.map(([pattern, module]) => {
        const page = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/admin/${module}`));
        if (!page) this.error(`route-preload: no chunk for ${module} (is it imported lazily?)`);
        return [pattern.source, [...closure([page.fileName])].filter((f) => !initial.has(f))];
      });
      const source = `// Written by admin/routePreload.ts: preloads the current screen's code (see there).
(function () {
  var routes = ${JSON.stringify(map)};
  for (var i = 0; i < routes.length; i++) {
    if (!new RegExp(routes[i][0]).test(location.pathname)) continue;
    routes[i][1].forEach(function (file) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = '/' + file;
      document.head.appendChild(link);
    });
    return;
  }
})();
`;
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOAD_FILE, source });
    },
  };
}
