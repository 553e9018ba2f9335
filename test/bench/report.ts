/** What the benches share: the DynamoDB meter, an HTTP client, percentiles, the results table and unthrottled gateways. */
import { Agent, get } from 'node:http';
import type { LocalStack, LocalStackOptions } from '../../infra/local/stack.js';
import { UNTHROTTLED } from '../../infra/local/stage-throttle.js';

/**
 * The benches load the local gateways beyond one stage's throttle on purpose (thousands of
 * connections, requests back to back): they measure our code, not API Gateway's throttle.
 */
export const UNTHROTTLED_GATEWAYS = {
  httpLimits: { throttle: UNTHROTTLED },
  webSocketLimits: { throttle: UNTHROTTLED },
  clientBudgetPerMinute: Infinity,
} satisfies Partial<LocalStackOptions>;

export interface DynamoDbMeter {
  calls: number;
  queries: number;
  capacity: number;
  reset(): void;
}

/** Counts every DynamoDB call the functions make (and the Queries among them), each asked for its consumed capacity. */
export function meterDynamoDb(stack: Pick<LocalStack, 'observeDynamoDb'>): DynamoDbMeter {
  const meter: DynamoDbMeter = {
    calls: 0,
    queries: 0,
    capacity: 0,
    reset() {
      [meter.calls, meter.queries, meter.capacity] = [0, 0, 0];
    },
  };
  stack.observeDynamoDb(({ operation, capacityUnits }) => {
    meter.calls += 1;
    if (operation === 'Query') meter.queries += 1;
    meter.capacity += capacityUnits;
  });
  return meter;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle value (the upper of the two middle ones of an even count). */
export const median = (values: readonly number[]): number => percentile([...values].sort((a, b) => a - b), 50);

/** Prints rows under a header, each column as wide as its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

const keepAlive = new Agent({ keepAlive: true });

/**
 * GETs a URL of the local gateway over a kept-alive connection and parses its JSON body. The
 * latencies the benches report are the server's, so the client is Node's plain HTTP: `fetch`
 * (undici) adds ~0.5 ms of its own to each request here, a quarter of a raw query's time.
 */
export function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    get(url, { agent: keepAlive, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if ((response.statusCode ?? 0) >= 400) reject(new Error(`GET ${url}: ${response.statusCode} ${body}`));
        else resolve(JSON.parse(body) as T);
      });
    }).on('error', reject);
  });
}
