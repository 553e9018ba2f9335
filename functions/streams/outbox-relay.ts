import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { PUT_EVENTS_LIMIT, putEvents } from '../lib/events.js';
import { CORRELATION_ID, logger, withLogContext } from '../lib/logger.js';
import type { OutboxItem } from '../lib/outbox.js';
import { OUTBOX_PREFIX } from '../table.js';

function outboxItemOf(record: DynamoDBRecord): OutboxItem | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>) as OutboxItem;
  return item.pk.startsWith(OUTBOX_PREFIX) ? item : undefined;
}

/**
 * The outbox relay: the table's stream hands it the outbox items that changes wrote, and it
 * puts their events on the bus in order, ten at a time. When the bus refuses an event, the
 * relay reports that record as the batch's first failure: the stream hands it (and every later
 * record) over again, so an event is delivered at least once and never skipped. The same
 * handler reads DynamoDB Local's stream in the local stack (infra/local/outbox-stream.ts).
 */
async function handle(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const pending = event.Records.flatMap((record) => {
    const item = outboxItemOf(record);
    return item ? [{ record, item }] : [];
  });
  for (let start = 0; start < pending.length; start += PUT_EVENTS_LIMIT) {
    const batch = pending.slice(start, start + PUT_EVENTS_LIMIT);
    let failed: number | undefined;
    try {
      failed = await putEvents(
        batch.map(({ item }) => ({ Source: item.source, DetailType: item.detailType, Detail: item.detail, Time: new Date(item.createdAt) })),
      );
    } catch (error) {
      logger.warn('bus put failed; the stream retries', { error });
      failed = 0;
    }
    if (failed !== undefined) {
      const { record, item } = batch[failed]!;
      const { [CORRELATION_ID.detailKey]: correlationId } = JSON.parse(item.detail) as Record<string, unknown>;
      logger.warn('event not taken by the bus; the stream retries', { eventId: item.eventId, detailType: item.detailType, correlationId });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

export const handler = withLogContext(handle);
