// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'url',
  'stream',
  'events',
  'util',
  'buffer',
];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'tests/e2e/artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.mjs', '.ci/*.mjs', 'scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The renderer is a web page: it reaches main only through window.api and may take
      // only types from src-main (the IPC contract).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer never imports electron; use window.api.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer never imports Node modules.' })),
          ],
          patterns: [
            { group: ['node:*'], message: 'The renderer never imports Node modules.' },
            {
              regex: '(^|/)src-main(/|$)',
              message: 'The renderer never imports main; the contract is in src-shared.',
            },
            {
              regex: '(^|/)src-shared(/|$)',
              allowTypeImports: true,
              message: 'The renderer may only `import type` from the shared leaf (src-shared).',
            },
          ],
        },
      ],
    },
  },
  // Layers only point down: surfaces (shell, web, cli, control) -> dispatch -> core -> api -> shared. Each layer is
  // refused the folders above it; tests/architecture/layers.test.ts checks the same on resolved paths
  // and looks for folder cycles.
  ...[
    { files: ['src-shared/**/*.ts'], above: ['src-main', 'src-renderer'] },
    {
      files: ['src-main/lib/**/*.ts'],
      above: ['api', 'core', 'dispatch', 'shell', 'web', 'cli', 'control', 'src-shared'],
    },
    { files: ['src-main/api/**/*.ts'], above: ['core', 'dispatch', 'shell', 'web', 'cli', 'control'] },
    { files: ['src-main/core/**/*.ts'], above: ['dispatch', 'shell', 'web', 'cli', 'control'] },
    { files: ['src-main/dispatch/**/*.ts'], above: ['shell', 'web', 'cli', 'control'] },
    // Surfaces: the control socket is shared by the CLI (its client) and the job owners (its server).
    { files: ['src-main/control/**/*.ts'], above: ['shell', 'web', 'cli'] },
    { files: ['src-main/cli/**/*.ts'], above: ['shell', 'web'] },
    { files: ['src-main/web/**/*.ts'], above: ['shell', 'cli'] },
  ].map(({ files, above }) => ({
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Only src-main/shell may import electron; pass what core needs through constructors.',
            },
          ],
          patterns: [
            {
              regex: `(^|/)(${above.join('|')})(/|$)`,
              message: 'Imports only point down: surfaces -> dispatch -> core -> api -> shared.',
            },
          ],
        },
      ],
    },
  })),
  {
    // The sandbox is the test oracle of the app's client: it must not share the app's code (one bug
    // would hide in both), nor need Electron (it runs as a CLI and in tests).
    files: ['packages/sandbox/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The sandbox runs without Electron.' }],
          patterns: [
            {
              group: ['**/src-main/**', '**/src-renderer/**', '**/tests/support/**'],
              message: 'The sandbox imports nothing from the app; copy what it needs into packages/sandbox.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON answers all the time; asserting on them is the point. The sandbox's
    // testing entry is test code too.
    files: ['tests/**/*.{ts,tsx}', 'packages/sandbox/tests/**/*.ts', 'packages/sandbox/src/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
