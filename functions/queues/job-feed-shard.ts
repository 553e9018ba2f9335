import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { JobFeedShardMessage } from '../events/job-feed.js';
import { logger, withLogContext } from '../lib/logger.js';
import { pushToConnections, shardConnectionIds } from '../lib/sockets.js';

/**
 * Pushes a job feed message to the live connections of one shard, page by page. A message
 * that fails is retried alone (partial batch response); its connections may then receive it
 * twice, which the browser tolerates (the feed patches its cache by job id).
 */
async function handle(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const { shard, message } = JSON.parse(record.body) as JobFeedShardMessage;
      const delivered = await pushToConnections(shardConnectionIds(shard), message);
      logger.info('job feed shard pushed', { shard, type: message.type, delivered });
    } catch (error) {
      logger.error('job feed shard failed', { messageId: record.messageId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

export const handler = withLogContext(handle);
