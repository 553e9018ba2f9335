import type { StreamConsumer } from '../declarations.js';
import { OUTBOX_PREFIX } from '../table.js';

/**
 * The outbox feature's functions: its part of STREAM_CONSUMERS, which functions/routes.ts gathers
 * from every feature (the same names and shapes there).
 */
export const STREAM_CONSUMERS = {
  /**
   * The transactional outbox's relay: every event is written to the table with its change
   * (functions/lib/outbox.ts) and only this function puts events on the bus.
   */
  outboxRelay: {
    description: 'Puts the events of the outbox on the bus, at least once and in order',
    entry: 'functions/outbox/streams/outbox-relay.ts',
    capabilities: ['events:put'],
    filter: { eventName: ['INSERT'], dynamodb: { NewImage: { pk: { S: [{ prefix: OUTBOX_PREFIX }] } } } },
  },
} as const satisfies Record<string, StreamConsumer>;
