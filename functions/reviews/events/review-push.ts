import type { EventBridgeEvent } from 'aws-lambda';
import type { LiveMessage, Review } from '../../../shared/api.js';
import { pushToConnections, userConnectionIds } from '../../lib/sockets.js';
import { withLogContext } from '../../lib/logger.js';

/** A new or changed review goes live to every connection of the user it is about. */
async function handle(event: EventBridgeEvent<string, Review>): Promise<void> {
  const review = event.detail;
  const message: LiveMessage = { type: 'review.saved', review };
  await pushToConnections(userConnectionIds(review.revieweeId), message);
}

export const handler = withLogContext(handle);
