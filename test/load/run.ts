/**
 * `npm run load [-- --quick | --users N --duration S --ramp S] [--target <url of config.json>] [--report <file>]`:
 * the product under a mixed load, driven by Artillery from test/load/scenario.yml.
 *
 * Without --target it starts its own local stack on random ports (as the benches do); with
 * --target it drives a running local-mode stack, e.g. `npm run dev`'s
 * (http://127.0.0.1:5173/config.json), and checks it through LOAD_DYNAMODB (its DynamoDB Local:
 * LOCAL_DYNAMODB_PORT of .env, as `npm run dev` reads it) and LOAD_TABLE (`npm run dev`'s table). The users are made before
 * the run; then `--users` virtual users arrive evenly over `--ramp` seconds (the ramp that shows
 * the knee) and all of them keep going for `--duration` seconds more. After it: per-scenario
 * throughput, each step's p50/p95/p99 beside its budget, answers by code, the ramp's 10-second
 * periods, and the consistency check, which alone decides the exit code (timing never does).
 * `--report` keeps Artillery's own JSON report (`npx artillery report` renders it).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
import { DEFAULT_PORTS, DEV_TABLE_NAME, LOCAL_CREDENTIALS, LOCAL_STRIPE_KEYS, RANDOM_PORTS, startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { checkConsistency, gatherFacts } from './consistency.js';
import { COORDINATOR, type Claimed, type LoadSettings, type SocketRecord } from './protocol.js';
import { printReport, type ArtilleryReport } from './report.js';
import { localSetup, type LoadUsers } from './setup.js';

const HERE = import.meta.dirname;
/** The scenario's weights (scenario.yml): the share of virtual users each role gets. */
const WEIGHTS = { poster: 2, worker: 3, chat: 2 } as const;
const SIZES = {
  full: { users: 200, duration: 60, ramp: 40 },
  quick: { users: 20, duration: 15, ramp: 5 },
} as const;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    users: { type: 'string' },
    duration: { type: 'string' },
    ramp: { type: 'string' },
    target: { type: 'string' },
    report: { type: 'string' },
  },
});
const size = values.quick ? SIZES.quick : SIZES.full;
const users = Number(values.users ?? size.users);
const duration = Number(values.duration ?? size.duration);
const ramp = Number(values.ramp ?? size.ramp);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

/** How many users of a role to make: the role's expected share of the virtual users and a few more for chance (beyond them users are shared). */
const poolSize = (role: keyof typeof WEIGHTS) => {
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  return Math.ceil((users * WEIGHTS[role]) / total) + 2;
};

/** The coordinator the virtual users ask for the settings and their users, and hand their chat records to. */
function serveCoordinator(pool: LoadUsers, settingsOf: () => LoadSettings, sockets: SocketRecord[]) {
  const next = { poster: 0, worker: 0, chat: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      let answer: unknown = {};
      if (request.url === COORDINATOR.settings) answer = settingsOf();
      else if (request.url === COORDINATOR.claim) {
        const role = body.role as Claimed['role'];
        const users = role === 'poster' ? pool.posters : role === 'worker' ? pool.workers : pool.chatSeats;
        // Past the pool (chance gave a role more virtual users than expected), users are shared, as two tabs of one person.
        answer = { role, user: users[next[role]++ % users.length] };
      } else if (request.url === COORDINATOR.socket) sockets.push(body as SocketRecord);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  return new Promise<{ url: string; close: () => void }>((done) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      done({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    });
  });
}

function runArtillery(coordinatorUrl: string, apiUrl: string, output: string): Promise<number> {
  const overrides = { config: { target: apiUrl, phases: [{ name: 'ramp', duration: ramp, arrivalCount: users }] } };
  const artillery = resolve(HERE, '../../node_modules/.bin/artillery');
  // Artillery bundles processor.ts into dist/processor.js as CommonJS; this package is ESM, so the folder says otherwise.
  mkdirSync(join(HERE, 'dist'), { recursive: true });
  writeFileSync(join(HERE, 'dist/package.json'), '{ "type": "commonjs" }\n');
  const child = spawn(artillery, ['run', '--quiet', '--output', output, '--overrides', JSON.stringify(overrides), join(HERE, 'scenario.yml')], {
    stdio: 'inherit',
    env: { ...process.env, LOAD_COORDINATOR: coordinatorUrl, ARTILLERY_DISABLE_TELEMETRY: 'true' },
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code) => done(code ?? 1));
  });
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'oddjobs-load-'));
  let stack: LocalStack | undefined;
  try {
    let config: RuntimeConfig;
    let dynamoDbEndpoint: string;
    let tableName: string;
    if (values.target) {
      config = runtimeConfigSchema.parse(await (await fetch(values.target)).json());
      // Where `npm run dev` keeps its table, by the same .env.
      const envFile = resolve(HERE, '../../.env');
      if (existsSync(envFile)) process.loadEnvFile(envFile);
      dynamoDbEndpoint = process.env.LOAD_DYNAMODB ?? `http://127.0.0.1:${process.env.LOCAL_DYNAMODB_PORT ?? DEFAULT_PORTS.dynamodb}`;
      tableName = process.env.LOAD_TABLE ?? DEV_TABLE_NAME;
    } else {
      console.log('Starting a local stack on random ports...');
      stack = await startLocalStack({ dataDir: workDir, ports: RANDOM_PORTS, tableName: 'oddjobs-load' });
      config = stack.config;
      dynamoDbEndpoint = stack.urls.dynamodb;
      tableName = stack.tableName;
    }
    if (config.mode !== 'local') {
      throw new Error(
        'npm run load makes its users through the local mailbox and the Stripe simulator and checks through the table, so it drives local-mode stacks only (docs/load.md says what a deployed stack would need)',
      );
    }

    const counts = { posters: poolSize('poster'), workers: poolSize('worker'), chatPairs: Math.ceil(poolSize('chat') / 2) };
    console.log(`Making ${counts.posters} posters, ${counts.workers} workers and ${counts.chatPairs} chat pairs (each with a paid job and a conversation)...`);
    const setupStarted = performance.now();
    const pool = await localSetup(config)(counts);
    console.log(`Users ready in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s.`);

    const sockets: SocketRecord[] = [];
    let endsAt = 0;
    const settings = (): LoadSettings => {
      // The clock starts with the first virtual user's question: Artillery's own start-up is not the run.
      endsAt ||= Date.now() + (ramp + duration) * 1000;
      return {
        apiUrl: config.apiUrl,
        webSocketUrl: config.webSocketUrl,
        cognitoUrl: config.userPoolEndpoint ?? `https://cognito-idp.${config.region}.amazonaws.com/`,
        clientId: config.userPoolClientId,
        authFlow: 'USER_PASSWORD_AUTH',
        stripeApiUrl: config.stripe.simulatorUrl ?? 'https://api.stripe.com',
        stripePublishableKey: config.stripe.publishableKey,
        endsAt,
      };
    };
    const coordinator = await serveCoordinator(pool, settings, sockets);
    const output = values.report ? resolve(values.report) : join(workDir, 'report.json');
    console.log(`\nRunning ${users} virtual users: arriving over ${ramp} s, then ${duration} s more...\n`);
    const artilleryExit = await runArtillery(coordinator.url, config.apiUrl, output);
    coordinator.close();
    rmSync(join(HERE, 'dist'), { recursive: true, force: true });
    if (artilleryExit !== 0) console.log(`\nArtillery exited with ${artilleryExit}.`);

    const report = JSON.parse(readFileSync(output, 'utf8')) as ArtilleryReport;
    printReport(report, { users, duration, ramp });

    console.log('\nCONSISTENCY CHECK (table and Stripe after the run)');
    // What the run set in motion settles: webhooks, the outbox relay, the queues.
    if (stack) {
      await stack.stripe.idle();
      await stack.events.idle();
      await stack.queues.idle();
    } else await new Promise((done) => setTimeout(done, 5_000));
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dynamoDbEndpoint, region: config.region, credentials: LOCAL_CREDENTIALS }));
    const simulator = new URL(config.stripe.simulatorUrl!);
    const stripe = new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: simulator.hostname, port: Number(simulator.port), protocol: 'http', maxNetworkRetries: 0 });
    const userIds = new Set([...pool.posters, ...pool.workers, ...pool.chatSeats].map((user) => user.userId));
    const facts = await gatherFacts(db, tableName, stripe, userIds, sockets);
    const findings = checkConsistency(facts);
    const sent = sockets.flatMap((socket) => socket.sent).filter((message) => message.status === 201).length;
    const delivered = sockets.reduce((sum, socket) => sum + Object.values(socket.received).reduce((a, b) => a + b, 0), 0);
    console.log(
      `  ${facts.jobs.length} jobs, ${facts.payments.length} payments, ${Object.values(facts.transfers).flat().length} transfers, ${facts.applications.length} applications, ` +
        `${sent} chat messages sent over ${sockets.length} sockets (${delivered} pushes), ${facts.notifications.length} notifications`,
    );
    const lost = findings.filter((finding) => finding.kind === 'lost');
    const doubled = findings.filter((finding) => finding.kind === 'doubled');
    for (const finding of findings.slice(0, 50)) console.log(`  ${finding.kind.toUpperCase()}: ${finding.what}`);
    if (findings.length > 50) console.log(`  ... and ${findings.length - 50} more`);
    console.log(`  lost ${lost.length}, doubled ${doubled.length}: ${findings.length ? 'FAILED' : 'OK, nothing lost or doubled'}`);
    process.exitCode = findings.length ? 1 : 0;
  } finally {
    await stack?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
