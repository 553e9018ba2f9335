import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as index from '../../functions/routes.js';

/**
 * The backend by feature (README "Backend layout", docs/decisions/0319): each feature folder of
 * functions/ declares its own functions in its routes.ts, and functions/routes.ts gathers them.
 * These keep the index whole: nothing declared in a feature is left out of it, nothing in it is
 * declared outside its feature's folder, and every handler in a feature is declared there.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const functionsDir = join(repoRoot, 'functions');
/** The folders a feature keeps its handlers in, one per trigger. */
const HANDLER_FOLDERS = ['http', 'events', 'queues', 'schedules', 'streams', 'topics', 'ws', 'auth', 'deploy'];
/** The files functions/ keeps at its top: the index, what it is written in, the table, the throttles. */
const TOP_FILES = ['api-throttles.ts', 'declarations.ts', 'routes.ts', 'table.ts'];

const entries = readdirSync(functionsDir, { withFileTypes: true });
const features = entries.filter((entry) => entry.isDirectory() && entry.name !== 'lib').map((entry) => entry.name);
type Declarations = Record<string, Record<string, unknown> | undefined>;
const featureRoutes = Object.fromEntries(
  await Promise.all(features.map(async (feature) => [feature, (await import(pathToFileURL(join(functionsDir, feature, 'routes.ts')).href)) as Declarations] as const)),
);

/** Every declared function of a module, by the list (or WEBSOCKET_API) and key it is under: [list, key, declaration]. */
function declarationsOf(module: Declarations): [string, string, { entry: string }][] {
  return Object.entries(module).flatMap(([list, value]) => {
    if (!value || typeof value !== 'object' || !/^[A-Z_]+$/.test(list)) return [];
    return Object.entries(value)
      .filter(([, declaration]) => typeof (declaration as { entry?: unknown })?.entry === 'string')
      .map(([key, declaration]): [string, string, { entry: string }] => [list, key, declaration as { entry: string }]);
  });
}

describe('functions/ by feature', () => {
  it('holds feature folders, each with its routes.ts, lib/, and at its top only the declarations', () => {
    expect(features.filter((feature) => !existsSync(join(functionsDir, feature, 'routes.ts')))).toEqual([]);
    expect(entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort()).toEqual(TOP_FILES);
  });

  it("gathers every feature's declarations into functions/routes.ts, as the same objects under the same keys", () => {
    const missing: string[] = [];
    for (const [feature, module] of Object.entries(featureRoutes)) {
      for (const [list, key, declaration] of declarationsOf(module)) {
        const gathered = (index as unknown as Declarations)[list];
        if (gathered?.[key] !== declaration) missing.push(`${feature}: ${list}.${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("declares each function in the feature its handler is in, and each feature's handlers in its routes.ts", () => {
    const declared = Object.entries(featureRoutes).flatMap(([feature, module]) => declarationsOf(module).map(([list, key, { entry }]) => ({ feature, what: `${list}.${key}`, entry })));
    expect(declared.filter(({ feature, entry }) => !new RegExp(`^functions/${feature}/(${HANDLER_FOLDERS.join('|')})/[^/]+\\.ts$`).test(entry))).toEqual([]);
    expect(declared.length).toBe(declarationsOf(index as unknown as Declarations).length);
    const handlers = features.flatMap((feature) =>
      HANDLER_FOLDERS.filter((folder) => existsSync(join(functionsDir, feature, folder))).flatMap((folder) =>
        readdirSync(join(functionsDir, feature, folder)).map((file) => `functions/${feature}/${folder}/${file}`),
      ),
    );
    const entriesDeclared = new Set(declared.map(({ entry }) => entry));
    expect(handlers.filter((handler) => !entriesDeclared.has(handler))).toEqual([]);
  });
});
