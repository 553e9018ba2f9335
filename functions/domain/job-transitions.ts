import { JOB_TRANSITIONS, type JobAction, type JobStatus } from '../../shared/job-states.js';
import { MSG } from '../../shared/messages.js';
import { tableName } from '../lib/db.js';
import { notFound } from '../lib/errors.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getJob, jobIndexKeys, type JobItem } from './jobs.js';
import type { StoredNotification } from './notifications.js';

/** Actions that keep the job (delete removes it and has its own cascade). */
export type TransitionAction = Exclude<JobAction, 'delete'>;

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
 * The UpdateItem that performs `action` on a job read before: the new status from
 * JOB_TRANSITIONS with `changes`, every status-dependent index key recomputed (a field set to
 * undefined is removed; without a worker the job leaves GSI3). The condition repeats the
 * action's allowed source statuses and the guard, so two racing requests cannot both move
 * the job and a job that moved since it was read is left alone.
 */
export function jobTransition(job: JobItem, action: TransitionAction, changes: Partial<JobItem>, guard: TransitionGuard): JobTransition {
  const { from, to } = JOB_TRANSITIONS[action];
  const updated: JobItem = { ...job, ...changes, status: to as JobStatus, updatedAt: new Date().toISOString() };
  if ('workerId' in changes && changes.workerId === undefined) delete updated.workerId;

  const set: Record<string, unknown> = { ...changes, status: updated.status, ...jobIndexKeys(updated), updatedAt: updated.updatedAt };
  const remove = Object.keys(set).filter((field) => set[field] === undefined);
  if (!updated.workerId) remove.push('gsi3pk', 'gsi3sk');
  for (const field of remove) delete set[field];

  const names: Record<string, string> = { '#status': 'status' };
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
  const fromValues = from.map((status, i) => {
    values[`:from${i}`] = status;
    return `:from${i}`;
  });
  const [actorField, actorId] = 'posterId' in guard.by ? ['posterId', guard.by.posterId] : ['workerId', guard.by.workerId];
  values[':actor'] = actorId;
  const conditions = [`#status IN (${fromValues.join(', ')})`, `${actorField} = :actor`, 'attribute_not_exists(deletingAt)'];
  if (guard.condition) conditions.push(`(${guard.condition.expression})`);

  return {
    updated,
    update: {
      TableName: tableName(),
      Key: keys.job(job.id),
      UpdateExpression: `SET ${setClauses.join(', ')}${removeClauses.length ? ` REMOVE ${removeClauses.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
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
