import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { FUNCTION_ESBUILD_OPTIONS } from '../constructs/function-bundle.js';
import { REPO_ROOT } from '../constructs/repo.js';

/** Bundles live beside the dependencies they leave out (Stripe's SDK, S3's), where Node finds those. */
const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'oddjobs-local-functions');

/** What a bundle was built from: each input file's modification time. */
type Inputs = Record<string, number>;

const building = new Map<string, Promise<string>>();

const mtimeOf = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

function isCurrent(inputsFile: string): boolean {
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8')) as Inputs;
    return Object.entries(inputs).every(([path, mtime]) => mtimeOf(path) === mtime);
  } catch {
    return false;
  }
}

async function bundle(module: string): Promise<string> {
  const source = resolve(REPO_ROOT, module);
  const dir = join(CACHE_DIR, createHash('sha256').update(`${source}\n${JSON.stringify(FUNCTION_ESBUILD_OPTIONS)}`).digest('hex').slice(0, 16));
  const outfile = join(dir, 'index.mjs');
  const inputsFile = join(dir, 'inputs.json');
  if (isCurrent(inputsFile) && mtimeOf(outfile) >= 0) return outfile;
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed, so a test file bundling the same function meanwhile never reads half a bundle.
  const staging = join(dir, `staging-${process.pid}-${Date.now()}`);
  const { metafile } = await build({
    ...FUNCTION_ESBUILD_OPTIONS,
    absWorkingDir: REPO_ROOT,
    entryPoints: [source],
    outfile: join(staging, 'index.mjs'),
    metafile: true,
    logLevel: 'error',
  });
  const inputs: Inputs = Object.fromEntries(Object.keys(metafile.inputs).map((input) => resolve(REPO_ROOT, input)).map((path) => [path, mtimeOf(path)]));
  renameSync(join(staging, 'index.mjs.map'), `${outfile}.map`);
  renameSync(join(staging, 'index.mjs'), outfile);
  rmSync(staging, { recursive: true, force: true });
  writeFileSync(inputsFile, JSON.stringify(inputs));
  return outfile;
}

/**
 * A module bundled as the CDK bundles a function (FUNCTION_ESBUILD_OPTIONS): the local stack runs
 * what Lambda runs, and an execution environment starts in a tenth of the time the TypeScript
 * sources would take. Kept on disk while none of its inputs changed.
 */
export function functionBundle(module: string): Promise<string> {
  let bundled = building.get(module);
  if (!bundled) {
    bundled = bundle(module).finally(() => building.delete(module));
    building.set(module, bundled);
  }
  return bundled;
}
