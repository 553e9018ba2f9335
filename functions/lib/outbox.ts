import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../table.js';
import { db, tableName } from './db.js';
import { STORED_DETAIL_RETENTION_SECONDS, tooLargeForACall } from './event-limits.js';
import { CORRELATION_ID, currentCorrelationId } from './logger.js';
import type { TransactItem } from './transactions.js';

/**
 * Outbox items outlive their delivery by a day: the table's stream keeps records for 24 hours,
 * and an item's only use is to be read from the stream; one too large for a PutEvents call is
 * also read by its consumers, and is kept longer (STORED_DETAIL_RETENTION_SECONDS).
 */
const OUTBOX_RETENTION_SECONDS = 24 * 60 * 60;

/** A domain event as the outbox stores it; the relay (functions/outbox/streams/outbox-relay.ts) puts it on the bus. */
export interface OutboxItem {
  pk: string;
  sk: string;
  eventId: string;
  source: string;
  detailType: string;
  /**
   * The event's detail as JSON text, exactly as the bus receives it, with the correlation id of
   * the request that caused it, so every consumer's lines carry it too (functions/lib/logger.ts).
   */
  detail: string;
  createdAt: string;
  expiresAt: number;
}

export function outboxItem(source: string, detailType: string, detail: object): OutboxItem {
  const eventId = randomUUID();
  const now = new Date();
  const detailText = JSON.stringify({ ...detail, [CORRELATION_ID.detailKey]: currentCorrelationId() });
  const sentByReference = tooLargeForACall({ Source: source, DetailType: detailType, Detail: detailText, Time: now });
  return {
    ...keys.outboxEvent(eventId),
    eventId,
    source,
    detailType,
    detail: detailText,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + (sentByReference ? STORED_DETAIL_RETENTION_SECONDS : OUTBOX_RETENTION_SECONDS),
  };
}

/**
 * The transactional outbox: one more item for the TransactWriteItems of a change, so the
 * change and its event are written together or not at all. The table's stream delivers the
 * event to the bus at least once; handlers are idempotent.
 */
export function outboxEvent(source: string, detailType: string, detail: object): TransactItem {
  return { Put: { TableName: tableName(), Item: outboxItem(source, detailType, detail) } };
}

/**
 * Writes one event to the outbox alone, for a caller whose change is not a transaction of
 * ours. It throws when the write fails; once it returns, delivery is certain.
 */
export async function publishEvent(source: string, detailType: string, detail: object): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: outboxItem(source, detailType, detail) }));
}
