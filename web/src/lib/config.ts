import { fetchConfigJson, rememberConfig, takeEarlyConfig } from './api/early-reads';
import type { RuntimeConfig } from '../../../shared/runtime-config';

/**
 * Fetches /config.json: the same build runs against the local stack or AWS. index.html preloads
 * it, so it arrives beside the scripts; it is revalidated on every load (served `no-cache`).
 * Its API and app client are remembered for the next visit's early reads (lib/api/early-reads.ts).
 *
 * The file is checked against shared/runtime-config.ts's schema where it is written (the web
 * stack at synth, the local stack at start), not here: that check would put zod in every page's
 * first load (docs/decisions/0301-zod-leaves-the-first-load.md).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  // The early entry's read when it ran (it has consumed index.html's preload).
  const config = (await (takeEarlyConfig() ?? fetchConfigJson())) as RuntimeConfig;
  rememberConfig(config);
  return config;
}
