import { SendMessageBatchCommand, SQSClient, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import type { ENV } from '../routes.js';
import { env } from './env.js';
import { CORRELATION_ID, currentCorrelationId } from './logger.js';

let client: SQSClient | undefined;
const sqs = () => (client ??= new SQSClient({}));

/** The longest delay SQS holds a message back (15 minutes). */
export const SQS_MAX_DELAY_SECONDS = 900;
/** SendMessageBatch takes at most ten entries. */
const SQS_BATCH_LIMIT = 10;
const MAX_ATTEMPTS = 5;

/**
 * Sends each body as one message to the queue whose URL the named variable holds, ten per
 * request (delivered after `delaySeconds`, at most 900), retrying entries SQS failed. Throws if any is still refused, so the caller's
 * invocation fails and is retried (consumers are written to tolerate a repeated message).
 */
export async function sendMessages(queueUrlVariable: keyof typeof ENV, bodies: readonly object[], options: { delaySeconds?: number } = {}): Promise<void> {
  const queueUrl = env(queueUrlVariable);
  const correlationId = currentCorrelationId();
  // The consumer's lines carry the correlation id of the request that caused the messages.
  const MessageAttributes = correlationId ? { [CORRELATION_ID.messageAttribute]: { DataType: 'String', StringValue: correlationId } } : undefined;
  for (let start = 0; start < bodies.length; start += SQS_BATCH_LIMIT) {
    let pending: SendMessageBatchRequestEntry[] = bodies
      .slice(start, start + SQS_BATCH_LIMIT)
      .map((body, offset) => ({ Id: String(start + offset), MessageBody: JSON.stringify(body), MessageAttributes, DelaySeconds: options.delaySeconds }));
    for (let attempt = 1; pending.length; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw new Error(`SQS refused ${pending.length} messages to ${queueUrl}`);
      const { Failed = [] } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
      const failed = new Set(Failed.map((entry) => entry.Id));
      pending = pending.filter((entry) => failed.has(entry.Id));
    }
  }
}
