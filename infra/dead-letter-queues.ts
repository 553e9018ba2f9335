import type { TOPIC_CONSUMERS } from '../functions/routes.js';
import { EVENT_RULES, QUEUE_CONSUMERS, RECURRING_SCHEDULES, SCHEDULE_TARGETS, STREAM_CONSUMERS } from '../functions/routes.js';
import { DEFAULT_STAGE, pascalCase } from './constructs/names.js';

/**
 * What a dead-letter queue holds, which says how `npm run redrive` empties it:
 * - `invocations`: events or inputs a function was invoked with asynchronously (by EventBridge,
 *   Scheduler or SNS) and kept failing on, as Lambda's on-failure records, or that the invoking
 *   service could not deliver (the event itself, the target in a message attribute): handed to
 *   that function again;
 * - `queue`: messages of an SQS queue its consumer kept failing on: moved back to the queue;
 * - `stream`: the positions of stream records that expired: nothing to re-deliver.
 */
export type DeadLetterKind = 'invocations' | 'queue' | 'stream';

export interface DeadLetterSource {
  /** The stack part of the stack holding the queue ("Api" -> OddJobsApi, OddJobs-<stage>-Api). */
  readonly stack: 'Api' | 'Auth' | 'Events';
  /** The id of the construct, directly in that stack, whose `DeadLetterQueue` it is. */
  readonly constructId: string;
  readonly kind: DeadLetterKind;
}

const inStack = (stack: DeadLetterSource['stack'], declarations: Record<string, unknown>, kind: DeadLetterKind) =>
  Object.fromEntries(Object.keys(declarations).map((name) => [name, { stack, constructId: pascalCase(name), kind } satisfies DeadLetterSource]));

/**
 * Every dead-letter queue the stacks create, by the declaration (functions/routes.ts) whose
 * failures it catches: one source of truth for the CDK app's construct ids, the redrive script,
 * the alarms' instructions and the local queues (test/infra/app.test.ts checks the app has no other).
 */
export const DEAD_LETTER_QUEUES: Readonly<Record<string, DeadLetterSource>> = {
  ...inStack('Events', EVENT_RULES, 'invocations'),
  ...inStack('Api', SCHEDULE_TARGETS, 'invocations'),
  ...inStack('Api', RECURRING_SCHEDULES, 'invocations'),
  ...inStack('Api', QUEUE_CONSUMERS, 'queue'),
  ...inStack('Api', STREAM_CONSUMERS, 'stream'),
  ...({
    // The SES feedback's consumer is the auth stack's MailFeedback (the configuration set's topic).
    sesFeedback: { stack: 'Auth', constructId: 'MailFeedback', kind: 'invocations' },
  } satisfies Record<keyof typeof TOPIC_CONSUMERS, DeadLetterSource>),
};

/** What an operator runs to empty a declaration's dead-letter queue (its alarm says it). */
export const redriveCommand = (declarationName: string, stage: string) =>
  `npm run redrive -- ${declarationName}${stage === DEFAULT_STAGE ? '' : ` --stage ${stage}`}`;
