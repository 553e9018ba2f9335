import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDifference, describeLoss, type ReconciliationResult } from '../../functions/money/reconciliation.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { freePort } from '../../infra/local/processes.js';
import { seedDemoDataOnce } from '../../infra/local/seed.js';
import { RANDOM_PORTS, recurringScheduleName, startLocalStack, type LocalStackOptions } from '../../infra/local/stack.js';
import { previewWebApp } from '../../infra/local/web-preview.js';

/** A stack browser tests run against: where the app is, its mailbox and push service, its endpoints and table. */
export interface E2eStack {
  webUrl: string;
  mailboxUrl: string;
  /** The local Web Push service (infra/local/push-receiver.ts), which tests reach over HTTP. */
  pushReceiverUrl: string;
  /** The stack's endpoints as the app reads them (API, user pool, Stripe simulator), for set-up through the API. */
  runtimeConfig: RuntimeConfig;
  /** The stack's table, for set-up that the deploy writes directly (the invited admin's profile). */
  table: { endpoint: string; name: string };
  /** Stops the stack, having first reconciled its ledger with Stripe: a difference left by the browser tests fails the run. */
  stop(): Promise<void>;
}

/**
 * A fresh local stack with the demo data, and the production build of the web app served
 * by Vite's preview server with the stack's /config.json — what `npm run dev` runs, built
 * (infra/local/web-preview.ts). The suite shares one (global-setup.ts); a file that needs
 * other settings starts its own (useOwnStack in target.ts).
 */
export async function startE2eStack(options: Pick<LocalStackOptions, 'autoReleaseSeconds'> = {}): Promise<E2eStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-e2e-'));
  // The web app's port first: links in emails lead there.
  const webPort = await freePort();
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, webOrigin: `http://127.0.0.1:${webPort}`, ...options });
  await seedDemoDataOnce(stack, dataDir);
  const web = await previewWebApp(stack.config, { port: webPort });
  return {
    webUrl: web.url,
    mailboxUrl: stack.urls.mailbox,
    pushReceiverUrl: stack.urls.pushReceiver,
    runtimeConfig: stack.config,
    table: { endpoint: stack.urls.dynamodb, name: stack.tableName },
    async stop() {
      // What `npm run reconcile` does against this stack, with no grace for the newest objects.
      const result = (await stack.functions.invoke(recurringScheduleName('reconciliation'), RECURRING_SCHEDULES.reconciliation, { graceSeconds: 0 })) as ReconciliationResult;
      await web.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (result.differences.length) {
        const lines = [...result.differences.map(describeDifference), ...result.losses.map((loss) => `Loss: ${describeLoss(loss)}`)];
        throw new Error(`The ledger and Stripe differ after the browser tests:\n${lines.join('\n')}`);
      }
    },
  };
}
