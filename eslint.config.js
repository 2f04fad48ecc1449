import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import direction (bulletproof-react): shared code (components, lib, config) never imports
 * features or app; features never import each other or app; the server never imports the web app
 * and the other way round. Contracts import nothing of ours.
 */
const featureBoundaries = {
  files: ['apps/web/src/features/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['**/app/**', '**/app'], message: 'Features must not import the app layer.' },
          {
            // From features/<name>/file.tsx a sibling feature is '../<other>/'; shared code is '../../lib/'.
            regex: '^\\.\\./[^./][^/]*/',
            message: 'Features must not import other features; move shared code to components/ or lib/.',
          },
        ],
      },
    ],
  },
};

/**
 * The console's areas (features/console-*, issue 27) are pages of the provider console: they may
 * use its frame (features/console: ConsolePage, sections) and nothing else of another feature.
 */
const consoleAreaBoundaries = {
  files: ['apps/web/src/features/console-*/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          featureBoundaries.rules['no-restricted-imports'][1].patterns[0],
          {
            regex: '^\\.\\./(?!console/)[^./][^/]*/',
            message: 'A console area imports only the console frame (../console/) of the other features.',
          },
        ],
      },
    ],
  },
};

const sharedBoundaries = {
  files: ['apps/web/src/{components,lib,config}/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['**/features/**', '**/app/**'], message: 'Shared code must not import features or app.' },
        ],
      },
    ],
  },
};

/**
 * Import direction in the server: the web app never; and, per folder, what lies above it (decision
 * 044: the OpenAPI library below the catalog and the gateway, which never import each other).
 */
function serverBoundaries(files, ...patterns) {
  const globs = Array.isArray(files) ? files : [files];
  return {
    files: globs.filter((g) => !g.startsWith('!')),
    ignores: globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1)),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portico/web/*', '**/apps/web/**'],
              message: 'The server must not import the web app.',
            },
            ...patterns,
          ],
        },
      ],
    },
  };
}

/**
 * The admin screens that moved into the provider console (issue 27) stay with their features (their
 * api.ts and words) and are framed by the console's ConsolePage: that one file of features/console
 * is theirs to import, nothing else of another feature.
 */
const movedConsolePages = {
  files: [
    'apps/web/src/features/admin-go-live/admin-go-live-page.tsx',
    'apps/web/src/features/admin-import/admin-import-page.tsx',
    'apps/web/src/features/organizations/admin-outbox-page.tsx',
    'apps/web/src/features/support/admin-staff-page.tsx',
    'apps/web/src/features/support/admin-support-page.tsx',
  ],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          featureBoundaries.rules['no-restricted-imports'][1].patterns[0],
          {
            regex: '^\\.\\./(?!console/console-layout$)[^./][^/]*/',
            message: 'A moved console page imports only the console frame (../console/console-layout).',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portico/server/*', '**/apps/server/**'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
  serverBoundaries('apps/server/**/*.ts'),
  // A later block's no-restricted-imports replaces an earlier one's for the same file: each repeats
  // the server's rule (serverBoundaries) and adds its own.
  serverBoundaries('apps/server/src/modules/catalog/**/*.ts', {
    regex: '^(\\.\\./)+gateway/',
    message:
      'The catalog must not import the gateway: what both need lives in apps/server/src/openapi/ (decision 044).',
  }),
  serverBoundaries('apps/server/src/gateway/**/*.ts', {
    regex: '^(\\.\\./)+modules/catalog/',
    message:
      'The gateway must not import the catalog: what both need lives in apps/server/src/openapi/ (decision 044).',
  }),
  // Migrations are frozen once landed: they import nothing that changes with the code, only
  // db/ (its migration support: data-versions.ts) and their own frozen copies (decision 044).
  serverBoundaries(
    'apps/server/src/db/migrations/**/*.ts',
    {
      regex: '^(\\.\\./)+(modules|gateway|authz-server|openapi|content|oidc|plugins|jsonapi|lib)/',
      message:
        'A migration must not import code that changes (decision 044): copy what it needs into db/migrations/frozen/.',
    },
    { group: ['@portico/*'], message: 'A migration must not import the contracts (decision 044).' },
  ),
  // The content importer interface (content/content-importer.ts) and its runner sit below the
  // modules that implement it; importers.ts alone composes them (decision 044), and exporters.ts
  // their counterparts, the domains' exports (issue 27).
  serverBoundaries(
    [
      'apps/server/src/content/**/*.ts',
      '!apps/server/src/content/importers.ts',
      '!apps/server/src/content/exporters.ts',
    ],
    {
      regex: '^(\\.\\./)+(modules|gateway|authz-server)/',
      message:
        'The content importer framework sits below the modules: only importers.ts and exporters.ts list them (decision 044).',
    },
  ),
  // An importer reaches another domain through its service.ts only (the house rule), and, like
  // every module, never the gateway.
  serverBoundaries(
    ['apps/server/src/modules/*/importer.ts', 'apps/server/src/modules/*/demo-importer.ts'],
    {
      regex: '^\\.\\./[a-z-]+/(?!service\\.ts$)',
      message: 'An importer imports another module only through its service.ts (decision 044).',
    },
    {
      regex: '^(\\.\\./)+gateway/',
      message:
        'The catalog must not import the gateway: what both need lives in apps/server/src/openapi/ (decision 044).',
    },
  ),
  serverBoundaries('apps/server/src/openapi/**/*.ts', {
    regex: '^(\\.\\./)+(modules|gateway|authz-server|oidc|plugins|content)/',
    message:
      'The OpenAPI library sits below the modules and the gateway: it imports only lib/ and db/ (decision 044).',
  }),
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portico/server/*', '@portico/web/*', '**/apps/**'],
              message: 'Contracts import nothing of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    // Benchmarks and command-line tools report on standard output.
    files: ['bench/**/*.ts', 'apps/server/src/cli.ts', 'apps/server/src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  featureBoundaries,
  consoleAreaBoundaries,
  sharedBoundaries,
  movedConsolePages,
);
