import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config';

/** Fetches /config.json: the same build runs against the local stack or AWS. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return runtimeConfigSchema.parse(await response.json());
}
