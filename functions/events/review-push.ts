import type { EventBridgeEvent } from 'aws-lambda';
import type { LiveMessage, Review } from '../../shared/api.js';
import { pushToConnections, userConnectionIds } from '../lib/sockets.js';

/** A new or changed review goes live to every connection of the user it is about. */
export async function handler(event: EventBridgeEvent<string, Review>): Promise<void> {
  const review = event.detail;
  const message: LiveMessage = { type: 'review.saved', review };
  await pushToConnections(userConnectionIds(review.revieweeId), message);
}
