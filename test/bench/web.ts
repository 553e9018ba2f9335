/**
 * `npm run bench:web` (or `npm run bench -- web`): Lighthouse on the production build of the
 * web app, served as the browser tests serve it (infra/local/web-preview.ts: gzipped, with the
 * stack's /config.json) but over HTTPS and so HTTP/2, as CloudFront serves it, against a fresh
 * local stack with the demo data, in Debian's Chromium.
 *
 * Four pages, each on Lighthouse's desktop and mobile settings (simulated throttling): the
 * landing page of a first visit, a job page and the worker dashboard signed in as the demo
 * worker, and the poster dashboard signed in as a demo poster (each signed in through the
 * sign-in screen with playwright-core in the same browser, whose session Lighthouse keeps: it
 * clears caches between runs, not local storage). For each it prints the median of
 * BENCH_WEB_RUNS runs (3 by default) of the performance and accessibility scores and LCP, the
 * worst run's CLS, and the JS of the first load in KB gzip (every script the page loaded, as the
 * preview server sends it, and those of them loaded before the first contentful paint as the
 * browser saw it, unthrottled), beside the budgets of issues 16, 28 and 37. A second table
 * gives each page's main thread (test/bench/main-thread.ts): Lighthouse's total blocking time,
 * longest task and main-thread work, and the longest task as observed, by kind of work and with
 * what it ran, which the machine's load changes far less than the scores. Budgets are printed,
 * never asserted. BENCH_WEB_PAGES=landing,job,dashboard,poster-dashboard chooses pages;
 * BENCH_WEB_REPORTS=dir keeps each run's Lighthouse report (JSON) and trace (`*.trace.json`,
 * for Chrome DevTools' Performance panel) there, to see what shifted, loaded or ran;
 * BENCH_WEB_PROFILE=1 samples the JS profiler in each run, so the longest task's functions are
 * named (through the build's hidden source maps), at some cost to the scores. Beside LCP, the LCP Lighthouse's simulation (Lantern) gives the same run with every
 * request to the API (on the site's origin, under API_PATH) left out of its graph: what the
 * page's own files and work cost, without its data reads
 * (docs/decisions/0160-what-is-left-is-the-data-round-trip.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Config, Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { adoptGroup } from '../../infra/local/processes.js';
import { seedDemoDataOnce } from '../../infra/local/seed.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import { API_PATH } from '../../infra/constructs/site-request.js';
import { previewWebApp, WEB_DIST_DIR } from '../../infra/local/web-preview.js';
import { ROLE_HOME } from '../../shared/roles.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';
import { mainThreadOf, PROFILER_TRACE_CATEGORY, type MainThread } from './main-thread.js';
import { median, printTable } from './report.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
/** Headless, accepting the preview's self-signed certificate. */
const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS, '--ignore-certificate-errors'];
const WORKER = 'wendy@oddjobs.test';
const POSTER = 'paula@oddjobs.test';
const REPORTS = process.env.BENCH_WEB_REPORTS;
/** Samples the JS profiler during each run, to name the functions the longest task ran (it slows the page a little: the scores are not comparable). */
const PROFILE = process.env.BENCH_WEB_PROFILE === '1';

/**
 * Issue 16's budgets, issue 28's LCP for every page on mobile and issue 37's main thread: every
 * page's performance (mobile 97, desktop 100), total blocking time on mobile and the signed-in
 * pages' first-load JS. The landing page's JS, the first page of most visits, has its own.
 */
const BUDGET = { performance: { desktop: 100, mobile: 97 }, accessibility: 100, cls: 0.02, landingJsKb: 100, signedInJsKb: 130, mobileLcpMs: 2_000, mobileTbtMs: 150 } as const;

type FormFactor = 'desktop' | 'mobile';
/** Lighthouse's own desktop and (default) mobile settings. Imported on use: the other benches need none of it. */
const lighthouseModule = () => import('lighthouse');
const configFor = async (formFactor: FormFactor): Promise<Config> => {
  const { desktopConfig, defaultConfig } = await lighthouseModule();
  const config = formFactor === 'desktop' ? desktopConfig : defaultConfig;
  return PROFILE ? { ...config, settings: { ...config.settings, additionalTraceCategories: PROFILER_TRACE_CATEGORY } } : config;
};

interface Page {
  name: string;
  path: string;
  /** Whom the page is measured signed in as; undefined for a visitor. */
  signedInAs?: string;
}

interface Measurement {
  performance: number;
  accessibility: number;
  cls: number;
  lcpMs: number;
  /** The simulated LCP with the API's requests left out (NaN when Lantern could not replay it). */
  lcpWithoutApiMs: number;
  jsKb: number;
  scripts: number;
  /** The scripts' KB gzip that had loaded by the first contentful paint (both observed, not simulated). */
  jsBeforePaintKb: number;
  mainThread: MainThread;
}

/**
 * A throwaway self-signed certificate for 127.0.0.1 (openssl), so the preview serves HTTP/2 as
 * CloudFront does: over HTTP/1.1 Lighthouse's simulation queues the first load's ~20 scripts
 * on six connections, a cost the deployed site does not have. Without openssl: HTTP/1.1, said so.
 */
function selfSignedCertificate(dir: string): { cert: string; key: string } | undefined {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  if (made.error || made.status !== 0) {
    console.log('openssl is not available: serving over HTTP/1.1, which Lighthouse penalizes for the many chunks');
    return undefined;
  }
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** Chromium with a DevTools port, for Lighthouse and playwright-core alike. */
async function startChromium(): Promise<{ port: number; stop(): void }> {
  const profile = mkdtempSync(join(tmpdir(), 'oddjobs-bench-web-'));
  const child = adoptGroup(
    spawn(CHROMIUM_PATH, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  };
  const port = await new Promise<number>((done, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`Chromium did not open its DevTools port:\n${output}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    });
    child.once('exit', (code) => fail(new Error(`Chromium exited (${code}):\n${output}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { port, stop };
}

/** Signs a demo user in through the sign-in screen, as the browser tests do; the session stays in the browser's profile (replacing any other). */
async function signIn(port: number, webUrl: string, email: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    // Whoever was signed in before is forgotten (the sign-in screen shows no form to a signed-in user).
    await page.goto(`${webUrl}/sign-in`);
    await page.evaluate(() => window.localStorage.clear());
    await page.goto(`${webUrl}/sign-in`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    await page.close();
  } finally {
    // Leaves the browser (and its profile) running: this only ends playwright's connection.
    await browser.close();
  }
}

/** The gzipped size of a script of ours, as the preview server sends it (network sizes would add headers). */
function gzipKb(url: string, origin: string): number {
  const { pathname } = new URL(url);
  if (!url.startsWith(origin)) return 0;
  return gzipSync(readFileSync(join(WEB_DIST_DIR, pathname))).length / 1024;
}

/** Lighthouse's Lantern, for the LCP without the API's requests (internal modules: Lighthouse exports no API for them). */
interface LanternNode {
  type: string;
  request: { url: string };
}
interface LanternGraph {
  cloneWithRelationships(keep: (node: LanternNode) => boolean): LanternGraph;
}
interface LanternLcp {
  optimisticGraph: LanternGraph;
  pessimisticGraph: LanternGraph;
}
const lanternModules = async () => {
  const [{ LanternLargestContentfulPaint }, { LoadSimulator }] = await Promise.all([
    import('lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'),
    import('lighthouse/core/computed/load-simulator.js'),
  ]);
  return {
    lcp: LanternLargestContentfulPaint as unknown as { request(data: unknown, context: unknown): Promise<LanternLcp> },
    simulator: LoadSimulator as unknown as { request(data: unknown, context: unknown): Promise<{ simulate(graph: LanternGraph): { timeInMs: number } }> },
  };
};

/**
 * Lantern's LCP of a run (the mean of its optimistic and pessimistic estimates, as Lighthouse
 * weighs them) replayed with every request to the API (under `apiBase`, on the site's origin)
 * taken out of its graphs.
 */
async function lcpWithoutApi(artifacts: Record<string, unknown>, settings: unknown, apiBase: string): Promise<number> {
  const lantern = await lanternModules();
  const data = { trace: artifacts.Trace, devtoolsLog: artifacts.DevtoolsLog, gatherContext: artifacts.GatherContext, settings, URL: artifacts.URL, SourceMaps: [], simulator: null };
  const context = { computedCache: new Map() };
  const { optimisticGraph, pessimisticGraph } = await lantern.lcp.request(data, context);
  const simulator = await lantern.simulator.request(data, context);
  const withoutApi = (graph: LanternGraph) => simulator.simulate(graph.cloneWithRelationships((node) => node.type !== 'network' || !node.request.url.startsWith(apiBase))).timeInMs;
  return (withoutApi(optimisticGraph) + withoutApi(pessimisticGraph)) / 2;
}

async function measure(url: string, origin: string, apiBase: string, port: number, formFactor: FormFactor, reportName: string): Promise<Measurement> {
  const { default: lighthouse } = await lighthouseModule();
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] }, await configFor(formFactor));
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (REPORTS) {
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(join(REPORTS, `${reportName}.json`), String(result.report));
    writeFileSync(join(REPORTS, `${reportName}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  const lhr: Result = result.lhr;
  const trace = result.artifacts.Trace as unknown as Parameters<typeof mainThreadOf>[1];
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const final = lhr.finalDisplayedUrl;
  if (new URL(final).pathname !== new URL(url).pathname) throw new Error(`${url} ended on ${final}: not the page to measure`);
  const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ url: string; resourceType?: string; networkEndTime?: number }> } | undefined)?.items ?? [];
  const scripts = requests.filter((request) => request.resourceType === 'Script');
  // Both in ms from the navigation's start, as observed: the simulated FCP has no request times to compare with.
  const firstPaint = (lhr.audits.metrics?.details as { items?: Array<{ observedFirstContentfulPaint?: number }> } | undefined)?.items?.[0]?.observedFirstContentfulPaint ?? NaN;
  const beforePaint = scripts.filter((request) => request.networkEndTime !== undefined && request.networkEndTime <= firstPaint);
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    lcpWithoutApiMs: await lcpWithoutApi(result.artifacts as unknown as Record<string, unknown>, lhr.configSettings, apiBase).catch(() => NaN),
    jsKb: scripts.reduce((sum, request) => sum + gzipKb(request.url, origin), 0),
    scripts: scripts.length,
    jsBeforePaintKb: beforePaint.reduce((sum, request) => sum + gzipKb(request.url, origin), 0),
    mainThread: await mainThreadOf(lhr, trace),
  };
}

/**
 * The median of each value, but the worst CLS: whether a shift lands in view can race, and one
 * run in three that shifts is a shifting page. The main thread is the run of the median total
 * blocking time, whole: its longest task and what that ran belong together.
 */
function summarize(runs: Measurement[]): Measurement {
  const of = (key: Exclude<keyof Measurement, 'mainThread'>) => median(runs.map((run) => run[key]));
  const tbt = median(runs.map((run) => run.mainThread.tbtMs));
  const mainThread = runs.find((run) => run.mainThread.tbtMs === tbt)!.mainThread;
  return { performance: of('performance'), accessibility: of('accessibility'), cls: Math.max(...runs.map((run) => run.cls)), lcpMs: of('lcpMs'), lcpWithoutApiMs: of('lcpWithoutApiMs'), jsKb: of('jsKb'), scripts: of('scripts'), jsBeforePaintKb: of('jsBeforePaintKb'), mainThread };
}

const ms = (value: number) => `${Math.round(value)} ms`;
/** The first `count` entries of a breakdown, as 'name 12 ms, ...'. */
const top = (entries: Array<[string, number]>, count: number) =>
  entries
    .slice(0, count)
    .map(([name, value]) => `${name} ${ms(value)}`)
    .join(', ');

/** A value beside its budget, marked when over it. */
const vs = (value: string, budget: string, within: boolean) => `${value} ${within ? ' ' : '!'} (${budget})`;

export async function runWebBench(): Promise<void> {
  console.log('Building the web app...');
  await build({ configFile: resolve(import.meta.dirname, '../../web/vite.config.ts'), logLevel: 'warn' });

  const dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-bench-web-stack-'));
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench-web' });
  let web: Awaited<ReturnType<typeof previewWebApp>> | undefined;
  let browser: Awaited<ReturnType<typeof startChromium>> | undefined;
  try {
    await seedDemoDataOnce(stack, dataDir);
    web = await previewWebApp(stack.config, { tls: selfSignedCertificate(dataDir) });
    browser = await startChromium();
    const open = (await (await fetch(`${stack.urls.api}/jobs?limit=1`)).json()) as { items: Array<{ id: string }> };
    const job = open.items[0];
    if (!job) throw new Error('the demo data has no open job');

    const chosen = (process.env.BENCH_WEB_PAGES ?? 'landing,job,dashboard,poster-dashboard').split(',');
    // In this order: the visitor's page first, as once someone has signed in the browser keeps the session.
    const pages: Page[] = [
      { name: 'landing', path: '/' },
      { name: 'job', path: `/jobs/${job.id}`, signedInAs: WORKER },
      { name: 'dashboard', path: ROLE_HOME.worker, signedInAs: WORKER },
      { name: 'poster-dashboard', path: ROLE_HOME.poster, signedInAs: POSTER },
    ].filter((page) => chosen.includes(page.name));

    const rows: string[][] = [];
    const mainThreadRows: string[][] = [];
    let signedInAs: string | undefined;
    for (const page of pages) {
      if (page.signedInAs && page.signedInAs !== signedInAs) {
        await signIn(browser.port, web.url, page.signedInAs);
        signedInAs = page.signedInAs;
      }
      for (const formFactor of ['desktop', 'mobile'] as const) {
        const runs: Measurement[] = [];
        for (let run = 0; run < RUNS; run++) {
          process.stdout.write(`  ${page.name} ${formFactor} run ${run + 1}/${RUNS}\n`);
          runs.push(await measure(`${web.url}${page.path}`, web.url, `${web.url}${API_PATH}/`, browser.port, formFactor, `${page.name}-${formFactor}-${run + 1}`));
        }
        const m = summarize(runs);
        const jsBudget = page.signedInAs ? BUDGET.signedInJsKb : BUDGET.landingJsKb;
        const { tbtMs, maxFidMs, longestTask, workMs, observed } = m.mainThread;
        const lcp = `${(m.lcpMs / 1000).toFixed(2)} s`;
        rows.push([
          `${page.name}${page.signedInAs ? ' (signed in)' : ''}`,
          formFactor,
          vs(String(m.performance), `>= ${BUDGET.performance[formFactor]}`, m.performance >= BUDGET.performance[formFactor]),
          vs(String(m.accessibility), `${BUDGET.accessibility}`, m.accessibility >= BUDGET.accessibility),
          vs(m.cls.toFixed(3), `<= ${BUDGET.cls}`, m.cls <= BUDGET.cls),
          formFactor === 'mobile' ? vs(lcp, `<= ${(BUDGET.mobileLcpMs / 1000).toFixed(1)} s`, m.lcpMs <= BUDGET.mobileLcpMs) : lcp,
          `${(m.lcpWithoutApiMs / 1000).toFixed(2)} s`,
          vs(m.jsKb.toFixed(1), `<= ${jsBudget}`, m.jsKb <= jsBudget),
          String(m.scripts),
          m.jsBeforePaintKb.toFixed(1),
        ]);
        mainThreadRows.push([
          page.name,
          formFactor,
          formFactor === 'mobile' ? vs(ms(tbtMs), `<= ${BUDGET.mobileTbtMs}`, tbtMs <= BUDGET.mobileTbtMs) : ms(tbtMs),
          ms(maxFidMs),
          longestTask ? `${ms(longestTask.durationMs)} at ${(longestTask.startMs / 1000).toFixed(2)} s, ${longestTask.script}` : 'none',
          ms(workMs),
          observed ? `${ms(observed.durationMs)}: ${top(observed.byGroup, 3)}` : 'none',
          observed ? top(observed.ran, 3) : '',
        ]);
      }
    }

    console.log(`\nLighthouse ${RUNS === 1 ? '(one run)' : `(median of ${RUNS} runs, CLS the worst)`}, simulated throttling; '!' marks a value outside its budget\n`);
    printTable(['page', 'device', 'performance', 'accessibility', 'CLS', 'LCP', 'LCP without API', 'JS KB gzip', 'scripts', 'JS KB before FCP'], rows);
    console.log(
      `\nThe main thread (the run of the median total blocking time): Lighthouse's simulated blocking time, longest task and work, and the longest task as observed on this machine, by kind of work, with what it ran${PROFILE ? ' (sampled JS, self time)' : ' (JS calls; BENCH_WEB_PROFILE=1 samples the functions)'}\n`,
    );
    printTable(['page', 'device', 'TBT', 'max potential FID', 'longest task', 'main-thread work', 'longest observed task', 'it ran'], mainThreadRows);
  } finally {
    browser?.stop();
    await web?.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
