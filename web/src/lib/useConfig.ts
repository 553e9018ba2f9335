import { createContext, useContext } from 'react';
import type { RuntimeConfig } from '../../../shared/runtime-config';

export const ConfigContext = createContext<RuntimeConfig | null>(null);

/** The runtime configuration loaded from /config.json at start-up. */
export function useConfig(): RuntimeConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig needs a ConfigContext provider');
  return config;
}
