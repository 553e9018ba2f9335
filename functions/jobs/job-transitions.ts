import { JOB_PROCESS, moneyStateOf, type JobAction, type Transition } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { tableName } from '../lib/db.js';
import { notFound } from '../lib/errors.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getJob, jobIndexKeys, type JobItem } from './jobs.js';
import type { StoredNotification } from '../notifications/notifications.js';

/** Actions that keep the job (a delete removes it and has its own cascade). */
export type TransitionAction = Exclude<JobAction, 'delete' | 'adminDelete' | 'expireDraft'>;

export interface TransitionGuard {
  /** Who may make the change: the job's poster, or its assigned worker. */
  by: { posterId: string } | { workerId: string };
  /** A further condition on the job, e.g. on a counter, with the values it names. */
  condition?: { expression: string; values: Record<string, unknown> };
}

export interface JobTransition {
  /** The job as it is once the update succeeds. */
  updated: JobItem;
  /** An UpdateItem, alone or as one item of a transaction. */
  update: NonNullable<TransactItem['Update']>;
}

/**
 * The UpdateItem that performs `action` on a job read before (shared/job-process.ts): the new
 * status and money state with `changes`, every status-dependent index key recomputed (a field
 * set to undefined is removed; without a worker the job leaves GSI3). The condition repeats
 * the action's source statuses and money states and the guard, so two racing requests cannot
 * both move the job and a job that moved since it was read is left alone.
 *
 * With `step: 'settle'` it is the second step of an action whose money waits for Stripe: from
 * the action's pending money state (and nothing else) to the state it settles in.
 */
export function jobTransition(
  job: JobItem,
  action: TransitionAction,
  changes: Partial<JobItem>,
  guard: TransitionGuard,
  step: 'decide' | 'settle' = 'decide',
  /** Counters moved by the same update (ADD), e.g. a resolved dispute's `openDisputes: -1`. */
  counters: Record<string, number> = {},
): JobTransition {
  const transition: Transition = JOB_PROCESS[action];
  const settling = step === 'settle';
  if (settling && !(transition.moneyTo && transition.settles)) throw new Error(`${action} has no pending money state to settle`);
  const target = settling ? transition.settles!.status : transition.to;
  const status = target === 'same' || target === null ? job.status : target;
  const moneyState = settling ? transition.settles!.money : (transition.moneyTo ?? moneyStateOf(job));
  const updated: JobItem = { ...job, ...changes, status, moneyState, updatedAt: new Date().toISOString() };
  for (const [field, by] of Object.entries(counters)) (updated as unknown as Record<string, number>)[field] = ((job as unknown as Record<string, number | undefined>)[field] ?? 0) + by;
  if ('workerId' in changes && changes.workerId === undefined) delete updated.workerId;

  const set: Record<string, unknown> = { ...changes, status: updated.status, moneyState, ...jobIndexKeys(updated), updatedAt: updated.updatedAt };
  const remove = Object.keys(set).filter((field) => set[field] === undefined);
  if (!updated.workerId) remove.push('gsi3pk', 'gsi3sk');
  for (const field of remove) delete set[field];

  const names: Record<string, string> = { '#status': 'status', '#money': 'moneyState' };
  const values: Record<string, unknown> = { ...guard.condition?.values };
  const setClauses = Object.entries(set).map(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removeClauses = [...new Set(remove)].map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  const addClauses = Object.entries(counters).map(([field, by], i) => {
    names[`#a${i}`] = field;
    values[`:a${i}`] = by;
    return `#a${i} :a${i}`;
  });
  const list = (prefix: string, items: readonly string[]) =>
    items
      .map((item, i) => {
        values[`:${prefix}${i}`] = item;
        return `:${prefix}${i}`;
      })
      .join(', ');
  const [actorField, actorId] = 'posterId' in guard.by ? ['posterId', guard.by.posterId] : ['workerId', guard.by.workerId];
  values[':actor'] = actorId;
  const conditions = [settling ? '#status = :current' : `#status IN (${list('from', transition.from)})`, moneyCondition(transition, settling, list), `${actorField} = :actor`, 'attribute_not_exists(deletingAt)'];
  if (settling) values[':current'] = job.status;
  if (guard.condition) conditions.push(`(${guard.condition.expression})`);

  return {
    updated,
    update: {
      TableName: tableName(),
      Key: keys.job(job.id),
      UpdateExpression: `SET ${setClauses.join(', ')}${removeClauses.length ? ` REMOVE ${removeClauses.join(', ')}` : ''}${addClauses.length ? ` ADD ${addClauses.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The condition on the job's money: one of the transition's source money states (to settle:
 * its pending state alone). A job stored before money states were kept has none; its status
 * says what it would be (moneyStateOf), so such a job qualifies through its status.
 */
function moneyCondition(transition: Transition, settling: boolean, list: (prefix: string, items: readonly string[]) => string): string {
  if (settling) return `#money = ${list('pending', [transition.moneyTo!])}`;
  const legacyStatuses = transition.from.filter((status) => transition.money.includes(moneyStateOf({ status })));
  const stored = `#money IN (${list('money', transition.money)})`;
  return legacyStatuses.length ? `(${stored} OR (attribute_not_exists(#money) AND #status IN (${list('legacy', legacyStatuses)})))` : stored;
}

/** A job after a change, with the notifications written in the same transaction (to publish). */
export interface JobChangeResult {
  job: JobItem;
  notifications: StoredNotification[];
}

/**
 * The job, read strongly consistent, for an action of its poster: a job that does not exist,
 * is being deleted or belongs to someone else is 'Job not found' (nobody learns which).
 */
export async function jobOfPoster(jobId: string, posterId: string): Promise<JobItem> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job || job.posterId !== posterId) throw notFound(MSG.jobs.notFound);
  return job;
}
