import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { env } from '../../lib/env.js';
import { logger, withLogContext } from '../../lib/logger.js';
import { movePreviousReleaseSchedules } from '../../lib/scheduler.js';

/** What the custom resource answers CloudFormation. */
export interface ReleaseScheduleMoveResult {
  PhysicalResourceId: string;
  Data?: { Moved: string };
}

/**
 * The upgrade from a deployment older than 28 Nov 2026 (AWS): a CloudFormation custom resource
 * that moves the pending auto-release schedules that deployment left in its own group (which
 * today's scheduler role no longer trusts, so they could never run) into today's group, and
 * deletes the old group. On a deployment that never had one, it finds nothing to move. Safe to
 * repeat; deleting the resource changes nothing.
 */
async function handle(event: CloudFormationCustomResourceEvent): Promise<ReleaseScheduleMoveResult> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const previousGroup = env('previousAutoReleaseScheduleGroup');
  const moved = await movePreviousReleaseSchedules();
  logger.info('previous auto-release schedules moved', { previousGroup, moved });
  return { PhysicalResourceId: `release-schedules-moved-from-${previousGroup}`, Data: { Moved: String(moved) } };
}

export const handler = withLogContext(handle);
