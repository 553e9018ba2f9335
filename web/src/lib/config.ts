import { runtimeConfigSchema, type RuntimeConfig } from '../../../shared/runtime-config';

/**
 * Fetches /config.json: the same build runs against the local stack or AWS. index.html preloads
 * it, so it arrives beside the scripts; it is revalidated on every load (served `no-cache`).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json');
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return runtimeConfigSchema.parse(await response.json());
}
