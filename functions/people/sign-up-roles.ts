import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isRole, type Role } from '../../shared/roles.js';
import { db, tableName } from '../lib/db.js';
import { keys } from '../table.js';

/** Long enough for a sign-up verified late (a resent code); the item then expires. */
const KEEP_SECONDS = 30 * 86_400;

/** Keeps the role a sign-up chose until its email is verified (pre-sign-up trigger). */
export async function keepSignUpRole(email: string, role: Role): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.signUpRole(email), type: 'signUpRole', role, expiresAt: Math.floor(Date.now() / 1000) + KEEP_SECONDS },
    }),
  );
}

/** The role the sign-up of this email chose (post-confirmation trigger), if it is known. */
export async function signUpRoleOf(email: string): Promise<Role | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.signUpRole(email), ConsistentRead: true }));
  return isRole(Item?.role) ? Item.role : undefined;
}
