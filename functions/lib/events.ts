import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { env } from './env.js';

const eventBridge = new EventBridgeClient({});

export type BusEvent = Omit<PutEventsRequestEntry, 'EventBusName'>;

/**
 * Puts one call's events on the application bus (within PUT_EVENTS_LIMITS: the relay cuts its
 * calls with putEventsCalls, functions/lib/event-limits.ts). Answers the index of the first
 * entry the bus did not take, or undefined when it took them all; a failed call throws.
 * Only the outbox relay calls it: everything else writes events to the outbox (lib/outbox.ts).
 */
export async function putEvents(events: BusEvent[]): Promise<number | undefined> {
  const eventBusName = env('eventBusName');
  const result = await eventBridge.send(new PutEventsCommand({ Entries: events.map((entry) => ({ ...entry, EventBusName: eventBusName })) }));
  if (!result.FailedEntryCount) return undefined;
  const failed = (result.Entries ?? []).findIndex((entry) => entry.ErrorCode);
  return failed < 0 ? 0 : failed;
}
