import { createHash } from 'node:crypto';

/** A stable shard of an id in [0, shards): a hash, so no lookup is needed and an id never moves. */
export const shardOf = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;
