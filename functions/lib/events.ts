import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { env } from './env.js';
import { logger } from './logger.js';

const eventBridge = new EventBridgeClient({});

/** Puts one event on the application bus; throws when the bus did not take it. */
export async function publishEventOrThrow(source: string, detailType: string, detail: object): Promise<void> {
  const result = await eventBridge.send(
    new PutEventsCommand({
      Entries: [{ EventBusName: env('eventBusName'), Source: source, DetailType: detailType, Detail: JSON.stringify(detail) }],
    }),
  );
  if (result.FailedEntryCount) throw new Error(`event rejected: ${JSON.stringify(result.Entries)}`);
}

/**
 * Puts one event on the application bus. A failure is logged, not thrown: the caller's
 * write already happened, and an error answer would only invite a duplicate retry.
 */
export async function publishEvent(source: string, detailType: string, detail: object): Promise<void> {
  try {
    await publishEventOrThrow(source, detailType, detail);
  } catch (error) {
    logger.error('event not published', { source, detailType, error });
  }
}
