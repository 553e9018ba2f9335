import { fileURLToPath } from 'node:url';
import { createLogger, loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';

const webDir = fileURLToPath(new URL('../../web', import.meta.url));

describe("the web app's Vite config, as npm run dev loads it", () => {
  it('loads without a warning (every import its config reaches names its file, as the native config loader requires)', async () => {
    const warnings: string[] = [];
    const logger = createLogger('warn');
    logger.warn = (message) => void warnings.push(message);
    logger.warnOnce = (message) => void warnings.push(message);
    const loaded = await loadConfigFromFile({ command: 'serve', mode: 'development' }, `${webDir}/vite.config.ts`, webDir, 'warn', logger);
    expect(loaded?.config.plugins?.length).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });
});
