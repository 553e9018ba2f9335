import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { putEventsCalls, putEventsEntrySize, STORED_DETAIL_KEY, tooLargeForACall } from '../../lib/event-limits.js';
import { putEvents, type BusEvent } from '../../lib/events.js';
import { CORRELATION_ID, logger, withLogContext } from '../../lib/logger.js';
import type { OutboxItem } from '../../lib/outbox.js';
import { OUTBOX_PREFIX } from '../../table.js';

function outboxItemOf(record: DynamoDBRecord): OutboxItem | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>) as OutboxItem;
  return item.pk.startsWith(OUTBOX_PREFIX) ? item : undefined;
}

/** A detail field an envelope keeps: one event patterns may match on (short text, a number, a flag). */
const keptInEnvelope = (value: unknown) => typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 256);

/**
 * The bus entry of an outbox item: its detail inline or, when the entry is too large for any
 * PutEvents call, an envelope that names the item (STORED_DETAIL_KEY) and keeps the detail's
 * short top-level fields, so rules still match it; its consumers read the rest from the item.
 */
function busEntryOf(item: OutboxItem): BusEvent {
  const entry = { Source: item.source, DetailType: item.detailType, Detail: item.detail, Time: new Date(item.createdAt) };
  if (!tooLargeForACall(entry)) return entry;
  const kept = Object.entries(JSON.parse(item.detail) as Record<string, unknown>).filter(([, value]) => keptInEnvelope(value));
  return { ...entry, Detail: JSON.stringify({ ...Object.fromEntries(kept), [STORED_DETAIL_KEY]: item.eventId }) };
}

/**
 * The outbox relay: the table's stream hands it the outbox items that changes wrote, and it
 * puts their events on the bus in order, in calls within EventBridge's limits (entries and
 * bytes per call, functions/lib/event-limits.ts). When the bus refuses an event, the relay
 * reports that record as the batch's first failure: the stream hands it (and every later
 * record) over again, so an event is delivered at least once and never skipped. The same
 * handler reads DynamoDB Local's stream in the local stack (infra/local/table-stream.ts).
 */
async function handle(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const pending = event.Records.flatMap((record) => {
    const item = outboxItemOf(record);
    return item ? [{ record, item, entry: busEntryOf(item) }] : [];
  });
  for (const call of putEventsCalls(pending, ({ entry }) => putEventsEntrySize(entry))) {
    let failed: number | undefined;
    try {
      failed = await putEvents(call.map(({ entry }) => entry));
    } catch (error) {
      logger.warn('bus put failed; the stream retries', { error });
      failed = 0;
    }
    if (failed !== undefined) {
      const { record, item } = call[failed]!;
      const { [CORRELATION_ID.detailKey]: correlationId } = JSON.parse(item.detail) as Record<string, unknown>;
      logger.warn('event not taken by the bus; the stream retries', { eventId: item.eventId, detailType: item.detailType, correlationId });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

export const handler = withLogContext(handle);
