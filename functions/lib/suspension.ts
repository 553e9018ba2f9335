import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../table.js';
import { db, tableName } from './db.js';

/**
 * Whether the admin suspended this user (DECISIONS.md "Suspension"). Cognito refuses their
 * sign-in and refreshes, but an ID token issued before stays valid until it expires and API
 * Gateway's JWT authorizer cannot know: every signed-in request and socket asks the profile.
 * One GetItem of one attribute (0.5 RCU), read strongly so a suspension holds from its answer on.
 */
export async function isSuspended(userId: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.profile(userId), ProjectionExpression: 'accountStatus', ConsistentRead: true }),
  );
  return isSuspendedProfile(Item);
}

/** Whether a profile item (or the part of it read) says its user is suspended. */
export const isSuspendedProfile = (profile: { accountStatus?: unknown } | undefined): boolean => profile?.accountStatus === 'suspended';
