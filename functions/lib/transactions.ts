import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { MSG } from '../../shared/messages.js';
import { db } from './db.js';
import { conflict } from './errors.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * A transaction DynamoDB cancelled because conditions did not hold. `reasons` has one code
 * per item, in the order the items were given ('None' for an item that was fine).
 */
export class TransactionRefused extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`transaction refused: ${reasons.join(', ')}`);
    this.name = 'TransactionRefused';
  }

  /** Whether the item at `index` failed its condition. */
  failed(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }
}

/**
 * The operation lost a race: another transaction held an item it wrote, or a condition failed
 * because the state changed since the operation read it. Running it again (reading anew)
 * either succeeds or meets a clear refusal.
 */
export class LostRace extends Error {
  constructor(cause?: unknown) {
    super('lost a race to a concurrent write', { cause });
    this.name = 'LostRace';
  }
}

function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as Error & { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/**
 * TransactWriteItems. A failed condition is definite and thrown as TransactionRefused; a
 * conflict with another transaction on the same items (DynamoDB cancels the later one rather
 * than wait) says nothing about the conditions and is thrown as LostRace, to be retried.
 */
export async function transactWrite(items: TransactItem[]): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.includes('ConditionalCheckFailed')) throw new TransactionRefused(codes);
    if (codes?.includes('TransactionConflict')) throw new LostRace(error);
    if (error instanceof Error && error.name === 'TransactionConflictException') throw new LostRace(error);
    throw error;
  }
}

export interface RetryOptions {
  attempts?: number;
  /** The first backoff ceiling; it doubles per attempt and the wait is drawn below it (full jitter). */
  baseDelayMs?: number;
  /** The 409 answered when every attempt lost its race. */
  exhaustedMessage?: string;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a read-decide-write operation again while it throws LostRace, after a random wait so
 * that the racers spread out. Each run reads afresh, so the refusals it throws (already
 * applied, full, assigned) describe the state that beat it.
 */
export async function retryLostRaces<T>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 6, baseDelayMs = 20, exhaustedMessage = MSG.jobs.statusChanged, sleep = wait } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      if (attempt + 1 >= attempts) throw conflict(exhaustedMessage);
      await sleep(Math.random() * baseDelayMs * 2 ** attempt);
    }
  }
}

/**
 * retryLostRaces for a step whose refused transaction means "the state moved since the
 * step read it": the step runs again and its fresh read chooses the answer. Refusals the
 * step can explain itself, it throws as HttpErrors before this sees them.
 */
export function retryWhileStale<T>(step: () => Promise<T>, options?: RetryOptions): Promise<T> {
  return retryLostRaces(async () => {
    try {
      return await step();
    } catch (error) {
      throw error instanceof TransactionRefused ? new LostRace(error) : error;
    }
  }, options);
}

/**
 * Writes a change whose conditions are the rule it checks, retrying lost races: a condition
 * that failed means the rule no longer holds (the job moved on, the thread closed), answered
 * 409 with `refusal`, the text that names it.
 */
export async function transactOrConflict(items: TransactItem[], refusal: string): Promise<void> {
  try {
    await retryLostRaces(() => transactWrite(items));
  } catch (error) {
    if (error instanceof TransactionRefused) throw conflict(refusal);
    throw error;
  }
}
