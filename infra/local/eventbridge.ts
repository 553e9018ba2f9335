import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { EVENT_RULES, type EventRule } from '../../functions/routes.js';
import { PUT_EVENTS_LIMITS, putEventsEntrySize } from '../../functions/lib/event-limits.js';
import { listen, readBody, sendJson, type Listening } from './http-util.js';
import { matchesPattern } from './event-pattern.js';
import type { FaultSwitch } from './faults.js';
import { invoke, onFailureRecord } from './lambda-runtime.js';

interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Resources?: string[];
  /** Epoch seconds, as the SDK sends a Date. */
  Time?: number;
}

export interface LocalEventBus extends Listening {
  /** Resolves once every event put so far has been delivered (tests await it). */
  idle(): Promise<void>;
  /** How many PutEvents calls it refused as over EventBridge's limits (each is logged too). */
  callsOverLimits(): number;
}

/** Like EventBridge, a failed target is retried with backoff (here: 3 tries in all). */
const RETRY_DELAYS_MS = [200, 1000];
const ACCOUNT = '000000000000';
const AMZ_JSON = { 'content-type': 'application/x-amz-json-1.1' };

/**
 * What EventBridge answers a PutEvents over its limits (PUT_EVENTS_LIMITS): the whole call is
 * refused, 400 ValidationException, with these messages (the first is Smithy's length check of
 * `Entries`; the second is the service's own, for the entries' total size).
 */
function overLimits(entries: readonly PutEventsEntry[]): string | undefined {
  if (entries.length > PUT_EVENTS_LIMITS.entriesPerCall) {
    return `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length less than or equal to ${PUT_EVENTS_LIMITS.entriesPerCall}`;
  }
  const bytes = entries.reduce((sum, entry) => sum + putEventsEntrySize(entry), 0);
  return bytes >= PUT_EVENTS_LIMITS.bytesPerCall ? 'Total size of the entries in the request is over the limit.' : undefined;
}

/** The local function name of a rule's target (its log lines and the Lambda Invoke API name it). */
export const ruleFunctionName = (ruleName: string) => `rule-${ruleName}`;


/**
 * A local EventBridge bus: accepts PutEvents from `@aws-sdk/client-eventbridge` and delivers
 * each event, asynchronously, to the handler of every rule in functions/routes.ts whose
 * pattern matches it.
 */
export async function serveEventBus(options: {
  port: number;
  busName: string;
  rules?: Record<string, EventRule>;
  /** Where an event a rule's function kept failing on goes: the rule's dead-letter queue. */
  deadLetter?: (ruleName: string, body: string) => void;
  /** `events fail` refuses PutEvents; `lambda error|delay` fails the rules' functions. */
  faults?: FaultSwitch;
}): Promise<LocalEventBus> {
  const { faults } = options;
  const rules = Object.entries(options.rules ?? EVENT_RULES);
  const inFlight = new Set<Promise<void>>();
  let refusedCalls = 0;
  let callsOverLimits = 0;

  const deliver = async (ruleName: string, rule: EventRule, event: Record<string, unknown>) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const run = () => invoke(ruleFunctionName(ruleName), rule, event);
        await (faults ? faults.invokeConsumer(ruleFunctionName(ruleName), run) : run());
        return;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          console.error(`[events] ${ruleName} failed for ${String(event['detail-type'])}, moved to its dead-letter queue`, error);
          options.deadLetter?.(ruleName, JSON.stringify(onFailureRecord(ruleFunctionName(ruleName), event, error, RETRY_DELAYS_MS.length + 1)));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  const server = createServer(async (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (target !== 'AWSEvents.PutEvents') return sendJson(res, 400, { __type: 'UnknownOperationException', message: target });
    const { Entries = [] } = JSON.parse((await readBody(req)).toString('utf8')) as { Entries?: PutEventsEntry[] };
    const refusal = overLimits(Entries);
    if (refusal) {
      callsOverLimits += 1;
      console.error(`[events] PutEvents refused: ${refusal} (${Entries.length} entries)`);
      return sendJson(res, 400, { __type: 'ValidationException', message: refusal }, AMZ_JSON);
    }
    if (faults?.strike('events')) {
      // `events fail`: struck calls alternate between EventBridge's two failures, the whole call
      // (500, which the SDK retries) and every entry refused in a 200 (which it does not).
      refusedCalls += 1;
      if (refusedCalls % 2) return sendJson(res, 500, { __type: 'InternalException', message: 'Internal service error (fault: events fail)' }, AMZ_JSON);
      const refused = Entries.map(() => ({ ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service error (fault: events fail)' }));
      return sendJson(res, 200, { FailedEntryCount: refused.length, Entries: refused }, AMZ_JSON);
    }
    const results = Entries.map((entry) => {
      if ((entry.EventBusName ?? 'default') !== options.busName) {
        return { ErrorCode: 'ResourceNotFoundException', ErrorMessage: `Event bus ${entry.EventBusName} does not exist.` };
      }
      const event = {
        version: '0',
        id: randomUUID(),
        'detail-type': entry.DetailType,
        source: entry.Source,
        account: ACCOUNT,
        time: (entry.Time === undefined ? new Date() : new Date(entry.Time * 1000)).toISOString(),
        region: 'us-east-1',
        resources: entry.Resources ?? [],
        detail: JSON.parse(entry.Detail ?? '{}') as unknown,
      };
      for (const [ruleName, rule] of rules) {
        if (!matchesPattern(rule.pattern as unknown as Record<string, unknown>, event)) continue;
        const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => deliver(ruleName, rule, event));
        inFlight.add(delivery);
        void delivery.finally(() => inFlight.delete(delivery));
      }
      return { EventId: event.id };
    });
    sendJson(res, 200, { FailedEntryCount: results.filter((r) => 'ErrorCode' in r).length, Entries: results }, AMZ_JSON);
  });

  const listening = await listen(server, options.port);
  return {
    ...listening,
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    callsOverLimits: () => callsOverLimits,
  };
}
