import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

/** The boundary messages ESLint gives `source` as if it were the backend file at `filePath`. */
async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported;\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe("the backend's feature boundaries (eslint.config.js, README 'Backend layout')", () => {
  it('keeps functions/lib below the features', async () => {
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from '../jobs/jobs.js';")).toEqual([expect.stringContaining('below the features')]);
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from '../money/executor.js';")).toHaveLength(1);
  });

  it('lets lib import lib, shared/ and the declarations at the top of functions/', async () => {
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from './errors.js';")).toEqual([]);
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from '../routes.js';")).toEqual([]);
    expect(await boundaryErrors('functions/lib/db.ts', "import { imported } from '../table.js';")).toEqual([]);
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from '../../shared/messages.js';")).toEqual([]);
  });

  it('refuses importing a handler, from any feature or lib', async () => {
    expect(await boundaryErrors('functions/money/tips.ts', "import { imported } from '../jobs/http/jobs.js';")).toEqual([expect.stringContaining('entry point')]);
    expect(await boundaryErrors('functions/money/tips.ts', "import { imported } from './events/payment-succeeded.js';")).toHaveLength(1);
    expect(await boundaryErrors('functions/jobs/http/jobs.ts', "import { imported } from '../../people/auth/pre-sign-up.js';")).toHaveLength(1);
    expect(await boundaryErrors('functions/lib/http.ts', "import { imported } from '../live/ws/connections.js';")).toHaveLength(2);
  });

  it("lets a feature import its own and other features' domain modules and lib", async () => {
    expect(await boundaryErrors('functions/jobs/http/jobs.ts', "import { imported } from '../job-management.js';")).toEqual([]);
    expect(await boundaryErrors('functions/money/tips.ts', "import { imported } from '../jobs/jobs.js';")).toEqual([]);
    expect(await boundaryErrors('functions/money/events/payment-succeeded.ts', "import { imported } from '../../lib/events.js';")).toEqual([]);
    expect(await boundaryErrors('functions/money/http/payments.ts', "import { imported } from '../../lib/http.js';")).toEqual([]);
  });
});
