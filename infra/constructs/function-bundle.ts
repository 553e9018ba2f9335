import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { REPO_ROOT } from './repo.js';

/**
 * How every function is bundled, in esbuild's terms: the CDK (app-function.ts), `npm run bench
 * -- cold-start` (which measures what these settings produce) and the local stack (which runs
 * the same bundles, infra/local/function-bundles.ts; hence this module imports no aws-cdk-lib)
 * all read it.
 */
export const FUNCTION_BUNDLE = {
  format: 'esm',
  target: 'node22',
  minify: true,
  // The AWS SDK v3 is bundled, tree-shaken ESM, not taken from the runtime: Node loads the
  // runtime's copy as hundreds of CommonJS files, which dominated every cold start
  // (`npm run bench -- cold-start`: the HTTP groups' init went from ~200 ms to ~85 ms).
  // Left out: the local stack's zip-code geocoder (4.6 MB), which only functions without a
  // place index load, in AWS none (see lib/geocoder.ts); and the SDKs of Stripe (250 KB) and
  // S3 (~130 KB), and web-push (~140 KB with its crypto helpers), imported on first use: Node
  // compiles every byte of a bundle at init, called or not, so they are pre-bundled beside the
  // functions calling them (PREBUNDLED_DEPENDENCIES).
  external: ['zipcodes', 'stripe', '@aws-sdk/client-s3', '@aws-sdk/s3-presigned-post', 'web-push'],
  // ESM bundles of CommonJS dependencies call `require`, which ES modules lack.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  mainFields: ['module', 'main'],
  // The SDK's credential chain reduced to its first link, the environment (see the module).
  alias: { '@aws-sdk/credential-provider-node': join(REPO_ROOT, 'functions/lib/lambda-credentials.ts') },
  // Stack traces name our source lines; without the sources' text the map is a third of the
  // size and Node reads it at init in a few milliseconds (with it, ~50 ms of the jobs group's).
  sourcemap: true,
  sourcesContent: false,
  nodeOptions: '--enable-source-maps',
} as const;

/** FUNCTION_BUNDLE as esbuild's own build options, for what bundles a function outside the CDK (the cold-start bench, infra tests). */
export const FUNCTION_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: FUNCTION_BUNDLE.format,
  target: FUNCTION_BUNDLE.target,
  minify: FUNCTION_BUNDLE.minify,
  external: [...FUNCTION_BUNDLE.external],
  mainFields: [...FUNCTION_BUNDLE.mainFields],
  alias: FUNCTION_BUNDLE.alias,
  banner: { js: FUNCTION_BUNDLE.banner },
  sourcemap: FUNCTION_BUNDLE.sourcemap,
  sourcesContent: FUNCTION_BUNDLE.sourcesContent,
} satisfies BuildOptions;
