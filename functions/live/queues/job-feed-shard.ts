import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { flushJobChange, pushToShard, type JobFeedQueueMessage } from '../live-feed.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * The job feed's fan-out, two steps on one queue: a `flush` message ends a job's coalescing
 * window and sends one `shard` message per connection shard watching it; each `shard` message
 * pushes the change to that shard's subscribed connections. A message that fails is retried alone
 * (partial batch response); its connections may then receive it twice, which the browser
 * tolerates (it applies a job's state by id, never an older one over a newer).
 */
async function handle(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const body = JSON.parse(record.body) as JobFeedQueueMessage;
      if (body.kind === 'flush') {
        await flushJobChange(body.jobId);
        logger.info('job feed fanned out', { jobId: body.jobId });
      } else {
        const delivered = await pushToShard(body.shard, body.topics, body.message);
        logger.info('job feed shard pushed', { shard: body.shard, type: body.message.type, delivered });
      }
    } catch (error) {
      logger.error('job feed message failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = withLogContext(handle);
