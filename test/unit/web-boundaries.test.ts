import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });

/** The boundary messages ESLint gives `source` as if it were the web file at `filePath`. */
async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported;\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe("the web app's feature boundaries (eslint.config.js, README 'Web app layout')", () => {
  it("refuses a feature reaching into another feature's files, at any depth", async () => {
    expect(await boundaryErrors('web/src/features/jobs/screens/JobScreen.tsx', "import { imported } from '../../reviews/components/RatingSummary';")).toEqual([
      expect.stringContaining('through its index'),
    ]);
    expect(await boundaryErrors('web/src/features/dashboards/screens/worker-dashboard/Section.tsx', "import { imported } from '../../../jobs/hooks/useJobs';")).toHaveLength(1);
    expect(await boundaryErrors('web/src/features/jobs/index.ts', "import { imported } from '../payments/payment-account';")).toHaveLength(1);
    expect(await boundaryErrors('web/src/features/jobs/components/Card.tsx', "import { imported } from '../../../features/jobs/hooks/useJobs';")).toHaveLength(1);
  });

  it("lets a feature import another feature's index and its own files", async () => {
    expect(await boundaryErrors('web/src/features/jobs/screens/JobScreen.tsx', "import { imported } from '../../reviews';")).toEqual([]);
    expect(await boundaryErrors('web/src/features/jobs/components/detail/Card.tsx', "import { imported } from '../../hooks/useJobs';")).toEqual([]);
    expect(await boundaryErrors('web/src/features/jobs/screens/JobScreen.tsx', "import { imported } from '../../../lib/components/PageHeading';")).toEqual([]);
  });

  it('keeps features out of the app shell, and lib out of both', async () => {
    expect(await boundaryErrors('web/src/features/auth/screens/SignIn.tsx', "import { imported } from '../../../app/layout/SiteHeader';")).toEqual([
      expect.stringContaining('app shell'),
    ]);
    expect(await boundaryErrors('web/src/lib/api/client.ts', "import { imported } from '../../features/auth';")).toHaveLength(1);
    expect(await boundaryErrors('web/src/lib/format.ts', "import { imported } from '../app/router';")).toHaveLength(1);
  });

  it("lets the app shell import only the features' indexes", async () => {
    expect(await boundaryErrors('web/src/app/router.tsx', "import { imported } from '../features/jobs';")).toEqual([]);
    expect(await boundaryErrors('web/src/app/layout/Header.tsx', "import { imported } from '../../features/chat/components/MessagesLink';")).toHaveLength(1);
    expect(await boundaryErrors('web/src/main.tsx', "import { imported } from './features/landing/routes';")).toHaveLength(1);
  });
});
