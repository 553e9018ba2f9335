import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The web app's boundaries (README "Web app layout"), as bulletproof-react sets them: another
 * feature is imported only through its index.ts (features/<name>), never its files; features do
 * not import the app shell; lib imports neither features nor the app. ESLint's own
 * no-restricted-imports sees import paths as written, so the rules are stated per folder depth:
 * a file `depth` folders below web/src/features/<name>/ reaches features/ with `depth + 1` '../',
 * a file `depth` folders below web/src/app/ or web/src/lib/ reaches web/src with `depth + 1`.
 */
const WEB_DEPTHS = [0, 1, 2, 3, 4, 5];
const up = (levels) => (levels === 0 ? '\\./' : `(\\.\\./){${levels}}`);
const underDepth = (folder, depth) => [`web/src/${folder}/${'*/'.repeat(depth)}*.{ts,tsx}`];
const FEATURE_INSIDES = 'Import another feature through its index (features/<name>), not its files.';
const webBoundaries = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const webBoundaryConfigs = [
  webBoundaries(['web/src/main.tsx', 'web/src/early.ts'], [{ regex: `^${up(0)}features/[^/]+/`, message: FEATURE_INSIDES }]),
  ...WEB_DEPTHS.flatMap((depth) => [
    webBoundaries(underDepth('features/*', depth), [
      { regex: `^${up(depth + 1)}[^./][^/]*/`, message: FEATURE_INSIDES },
      { regex: `^${up(depth + 2)}features/[^/]+/`, message: FEATURE_INSIDES },
      { regex: `^${up(depth + 2)}app(/|$)`, message: 'Features do not import the app shell (web/src/app).' },
    ]),
    webBoundaries(underDepth('app', depth), [{ regex: `^${up(depth + 1)}features/[^/]+/`, message: FEATURE_INSIDES }]),
    webBoundaries(underDepth('lib', depth), [
      { regex: `^${up(depth + 1)}(features|app)(/|$)`, message: 'web/src/lib is below the features and the app: it imports neither.' },
    ]),
  ]),
];

/**
 * The backend's boundaries (README "Backend layout"): functions/ is one folder per feature and
 * functions/lib/ below them. lib imports no feature folder (only lib, shared/ and the
 * declarations at functions/'s top: routes.ts, declarations.ts, table.ts); a handler (a file in
 * a feature's http/, events/, queues/, schedules/, streams/, topics/, ws/, auth/ or deploy/) is
 * an entry point, declared in its feature's routes.ts, that no module imports. Features import
 * each other's domain modules; madge keeps those imports free of circles.
 */
const HANDLER_FOLDERS = 'http|events|queues|schedules|streams|topics|ws|auth|deploy';
const HANDLER_IMPORT = {
  regex: `^\\.{1,2}/(.+/)?(${HANDLER_FOLDERS})/[^/]+$`,
  message: "A handler is an entry point (declared in its feature's routes.ts): import the domain module it calls, not the handler.",
};
const LIB_IMPORTING_A_FEATURE = {
  regex: '^(\\.\\./)+(?!shared/|lib/)[^./][^/]*/',
  message: 'functions/lib is below the features: it imports no feature folder (only lib, shared/ and functions/routes.ts, declarations.ts, table.ts).',
};
const backendBoundaryConfigs = [
  { files: ['functions/**/*.ts'], ignores: ['functions/lib/**'], rules: { 'no-restricted-imports': ['error', { patterns: [HANDLER_IMPORT] }] } },
  { files: ['functions/lib/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [HANDLER_IMPORT, LIB_IMPORTING_A_FEATURE] }] } },
];

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['web/public/service-worker.js'],
    languageOptions: { globals: { ...globals.serviceworker }, sourceType: 'script' },
  },
  {
    // Money leaves only through the executor (issue 43): a decision is written before its Stripe call.
    files: ['functions/**/*.ts'],
    ignores: ['functions/money/stripe-moves.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(create|createReversal|cancel|capture|confirm)$/][callee.object.property.name=/^(transfers|refunds|payouts|paymentIntents|charges)$/]",
          message: "Stripe's money APIs are called only by functions/money/stripe-moves.ts, for a decision of the executor (functions/money/executor.ts).",
        },
      ],
    },
  },
  ...webBoundaryConfigs,
  ...backendBoundaryConfigs,
);
