import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// From a module's file, '../<other>/<file>' reaches into another module; from anywhere in server/src,
// '…/modules/<module>/<file>' does.
const INTO_ANOTHER_MODULE = {
  regex: '^\\.\\./(?!\\.)[^/]+/.+',
  message: "Import another module through its index: '../<module>' (e.g. '../sites'), never its files; export what you need from that module's index.ts.",
};
const INTO_A_MODULE = {
  regex: '(^|/)modules/[^/]+/.+',
  message: "Import a module through its index: '…/modules/<module>' (e.g. './modules/sites'), never its files; export what you need from that module's index.ts.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'e2e/screenshots/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Only the config module reads process.env.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/config.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings from config.ts' }] },
  },
  {
    // A module is used through its face (index.ts): another module's files, repos included, are its own.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [INTO_A_MODULE] }] },
  },
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [INTO_ANOTHER_MODULE, INTO_A_MODULE] }] },
  },
);
