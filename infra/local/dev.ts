/**
 * `npm run dev`: the whole product on this machine, no AWS account. Starts the local stack,
 * seeds demo data on the first run, serves the web app with Vite, and prints where
 * everything is. `npm run dev -- --reset` starts from empty state. Ctrl-C stops it all.
 */
import './sdk-notice-off.js';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from 'vite';
import { API_PATH } from '../constructs/site-request.js';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-data.js';
import { stopChildrenWithProcess } from './processes.js';
import { seedDemoDataOnce } from './seed.js';
import { DEFAULT_PORTS, startLocalStack, type LocalPorts } from './stack.js';
import { serveApiOnSite, serveRuntimeConfig } from './web-preview.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Ports come from .env (see .env.example), each falling back to its default. */
const PORT_VARIABLES: Record<keyof LocalPorts, string> = {
  api: 'LOCAL_API_PORT',
  webSocket: 'LOCAL_WEBSOCKET_PORT',
  cognito: 'LOCAL_COGNITO_PORT',
  cognitoBackend: 'LOCAL_COGNITO_BACKEND_PORT',
  s3: 'LOCAL_S3_PORT',
  dynamodb: 'LOCAL_DYNAMODB_PORT',
  events: 'LOCAL_EVENTS_PORT',
  lambda: 'LOCAL_LAMBDA_PORT',
  mailbox: 'LOCAL_MAILBOX_PORT',
  stripe: 'LOCAL_STRIPE_PORT',
  queues: 'LOCAL_QUEUES_PORT',
  scheduler: 'LOCAL_SCHEDULER_PORT',
  ses: 'LOCAL_SES_PORT',
  pushReceiver: 'LOCAL_PUSH_RECEIVER_PORT',
  faults: 'LOCAL_FAULTS_PORT',
  secretsManager: 'LOCAL_SECRETS_MANAGER_PORT',
};

function portsFromEnv(): LocalPorts {
  const ports = { ...DEFAULT_PORTS };
  for (const [name, variable] of Object.entries(PORT_VARIABLES) as Array<[keyof LocalPorts, string]>) {
    const value = process.env[variable];
    if (value) ports[name] = Number(value);
  }
  return ports;
}

async function main(): Promise<void> {
  const started = Date.now();
  const envFile = resolve(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const dataDir = resolve(REPO_ROOT, process.env.LOCAL_DATA_DIR ?? '.local');
  if (process.argv.includes('--reset')) {
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`Cleared ${dataDir}`);
  }

  const webPort = Number(process.env.LOCAL_WEB_PORT ?? 5173);
  const stack = await startLocalStack({ dataDir, ports: portsFromEnv(), printMail: true, webOrigin: `http://127.0.0.1:${webPort}` });
  const seeded = await seedDemoDataOnce(stack, dataDir);

  const web = await createServer({
    configFile: resolve(REPO_ROOT, 'web/vite.config.ts'),
    server: { port: webPort, strictPort: true, host: '127.0.0.1' },
    plugins: [
      {
        name: 'local-runtime-config',
        configureServer(server) {
          server.middlewares.use('/config.json', serveRuntimeConfig(stack.config));
          server.middlewares.use(serveApiOnSite(stack.config.apiUrl));
        },
      },
    ],
  });
  await web.listen();
  const webUrl = web.resolvedUrls?.local[0] ?? `http://127.0.0.1:${web.config.server.port}/`;

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`
OddJobs is running locally (ready in ${seconds} s${seeded ? ', demo data created' : ''}).

  Web app        ${webUrl}
  Local mailbox  ${stack.urls.mailbox}   (verification and reset codes, notification emails)
  HTTP API       ${stack.urls.api}   (the web app calls it on its own origin, under ${API_PATH})
  WebSocket API  ${stack.urls.webSocket}
  Cognito        ${stack.urls.cognito}   (cognito-local behind a proxy)
  DynamoDB       ${stack.urls.dynamodb}   (table ${stack.tableName})
  S3             ${stack.urls.s3}
  EventBridge    ${stack.urls.events}
  Stripe         ${stack.urls.stripe}   (test-mode simulator; card 4242 4242 4242 4242 succeeds)
  Web Push       ${stack.urls.pushReceiver}   (a local push service; VAPID keys in ${dataDir}/vapid-keys.json)
  Secrets Mgr    ${stack.urls.secretsManager}   (the Stripe keys' secret, ${stack.secrets.stripeKeysArn})
  Faults         ${stack.urls.faults}   (\`npm run fault -- status\` in another terminal; docs/faults.md)

Demo logins (password ${DEMO_PASSWORD}):
${DEMO_USERS.map((user) => `  ${user.role.padEnd(7)} ${user.email}`).join('\n')}

State is kept in ${dataDir}; \`npm run dev -- --reset\` starts over. Ctrl-C stops everything.
`);

  let stopping = false;
  shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await web.close();
    await stack.stop();
    process.exit(0);
  };
}

/** Until the stack is up, shutting down is exiting: the 'exit' handler kills what was started. */
let shutdown = async (): Promise<void> => process.exit(1);
stopChildrenWithProcess(() => shutdown());

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
