// Packages the server loads on first use rather than at start (scripts/build-server.mjs). Loading
// everything the server imports took most of its start: pdf-lib and fontkit, the AWS SDK, sharp,
// canvas, bwip-js, the mail packages… none of which the first requests need. In the bundle each of
// these becomes a stand-in with the package's export names (read here, at build time): the package
// itself is required the first time one of its exports is used. The sources (tsx, vitest) import
// them as written. A package that cannot load fails its first use with an error naming it.
import { createRequire } from 'node:module';
import path from 'node:path';

/** Package → what it is needed for (said in the error when it cannot be loaded). */
export const LAZY_PACKAGES = {
  'pdf-lib': 'reading and writing PDF files',
  '@pdf-lib/fontkit': 'embedding fonts in PDF files',
  '@napi-rs/canvas': 'drawing designs and previews',
  sharp: 'reading and converting images',
  '@aws-sdk/client-s3': 'keeping files in an S3 bucket',
  '@aws-sdk/lib-storage': 'uploading files to an S3 bucket',
  '@aws-sdk/s3-request-presigner': 'signed links to files in an S3 bucket',
  'bwip-js/node': 'drawing barcodes',
  'i18n-iso-countries': 'checking country codes',
  mailparser: 'reading caught e-mails',
  nodemailer: 'sending e-mail',
  'tar-stream': 'backups',
  'csv-parse/sync': 'reading CSV files',
  'csv-stringify/sync': 'writing CSV files',
  '@shopify/admin-api-client': "calling a store's Admin API",
};

/** The function the stand-ins require with, defined at the top of each bundle (esbuild banner). */
export const LAZY_REQUIRE = '__presswork_lazyRequire';
export const lazyRequireBanner = `import { createRequire as __presswork_createRequire } from 'node:module';\nconst ${LAZY_REQUIRE} = __presswork_createRequire(import.meta.url);`;

/** Own property names a stand-in cannot redefine (those of every function). */
const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);

/** The stand-in module (CommonJS, so esbuild reads its exports at each use) for `name`, whose exports are `real`. */
export function standInSource(name, purpose, real) {
  const callable = typeof real === 'function';
  const keys = Object.getOwnPropertyNames(real).filter((k) => k !== '__esModule' && !(callable && FUNCTION_OWN.has(k)));
  const lines = [
    `let loaded;`,
    `function load() {`,
    `  if (loaded === undefined) {`,
    `    try {`,
    `      loaded = ${LAZY_REQUIRE}(${JSON.stringify(name)});`,
    `    } catch (err) {`,
    `      throw new Error(${JSON.stringify(`Presswork could not load the package ${name} (needed for ${purpose}): `)} + (err && err.message), { cause: err });`,
    `    }`,
    `  }`,
    `  return loaded;`,
    `}`,
    callable
      ? `const standIn = function (...args) { return new.target ? Reflect.construct(load(), args) : load().apply(this, args); };`
      : `const standIn = {};`,
    `for (const key of ${JSON.stringify(keys)}) Object.defineProperty(standIn, key, { get: () => load()[key], enumerable: true, configurable: true });`,
    `module.exports = standIn;`,
  ];
  return lines.join('\n');
}

/** The esbuild plugin: each of `packages` (a LAZY_PACKAGES-shaped object) imported by the bundle becomes its stand-in. */
export function lazyPackagesPlugin(root, packages = LAZY_PACKAGES) {
  const requireFromRoot = createRequire(path.join(root, 'package.json'));
  const names = Object.keys(packages);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const filter = new RegExp(`^(${names.map(escape).join('|')})$`);
  return {
    name: 'presswork-lazy-packages',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'presswork-lazy' }));
      build.onLoad({ filter: /.*/, namespace: 'presswork-lazy' }, (args) => ({
        contents: standInSource(args.path, packages[args.path], requireFromRoot(args.path)),
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}
