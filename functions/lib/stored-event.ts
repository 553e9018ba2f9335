import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../table.js';
import { db, tableName } from './db.js';
import { STORED_DETAIL_KEY } from './event-limits.js';
import { CORRELATION_ID, withLogContext } from './logger.js';
import type { OutboxItem } from './outbox.js';

/**
 * The event with its whole detail: one the relay sent by reference (too large for a PutEvents
 * call, functions/outbox/streams/outbox-relay.ts) has it read from its outbox item, which is kept while
 * the event may still be redriven (STORED_DETAIL_RETENTION_SECONDS). A missing item throws, so
 * the event is retried and then dead-lettered, never handled with half its detail.
 */
async function withStoredDetail<E extends { detail?: unknown }>(event: E): Promise<E> {
  const eventId = (event.detail as Record<string, unknown> | undefined)?.[STORED_DETAIL_KEY];
  if (typeof eventId !== 'string') return event;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.outboxEvent(eventId), ConsistentRead: true }));
  if (!Item) throw new Error(`The detail of event ${eventId} is no longer stored`);
  const { [CORRELATION_ID.detailKey]: _carried, ...detail } = JSON.parse((Item as OutboxItem).detail) as Record<string, unknown>;
  return { ...event, detail };
}

/**
 * The handler of a rule whose events may be too large for a PutEvents call (a bulk of new
 * notifications): withLogContext, and the detail read from the outbox when it was sent by
 * reference. Its function needs `table:read`.
 */
export function storedEventConsumer<E extends { detail?: unknown }, R>(handle: (event: E) => Promise<R>) {
  return withLogContext(async (event: E) => handle(await withStoredDetail(event)));
}
