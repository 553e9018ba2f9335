import { fetchConfigJson, rememberConfig, takeEarlyConfig } from './api/early-reads';
import { runtimeConfigSchema, type RuntimeConfig } from '../../../shared/runtime-config';

/**
 * Fetches /config.json: the same build runs against the local stack or AWS. index.html preloads
 * it, so it arrives beside the scripts; it is revalidated on every load (served `no-cache`).
 * Its API and app client are remembered for the next visit's early reads (lib/api/early-reads.ts).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  // The early entry's read when it ran (it has consumed index.html's preload).
  const config = runtimeConfigSchema.parse(await (takeEarlyConfig() ?? fetchConfigJson()));
  rememberConfig(config);
  return config;
}
