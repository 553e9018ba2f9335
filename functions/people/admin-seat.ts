import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { keys } from '../table.js';

/**
 * Exactly one admin may exist (DECISIONS.md "Accounts"). The seat is one item, claimed with a
 * conditional write at sign-up: two simultaneous admin sign-ups cannot both win. An
 * unconfirmed claim expires after a day so an abandoned sign-up does not lock the seat, and
 * the same email may sign up again while its own claim is pending.
 */
export const SEAT_CLAIM_TTL_SECONDS = 24 * 3600;

interface SeatItem {
  email: string;
  confirmed: boolean;
  userId?: string;
  /** Epoch seconds; only on unconfirmed claims. */
  expiresAt?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function claimAdminSeat(email: string): Promise<boolean> {
  const now = nowSeconds();
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.adminSeat(), type: 'adminSeat', email, confirmed: false, expiresAt: now + SEAT_CLAIM_TTL_SECONDS },
        ConditionExpression:
          'attribute_not_exists(pk) OR (confirmed = :false AND (expiresAt < :now OR email = :email))',
        ExpressionAttributeValues: { ':false': false, ':now': now, ':email': email },
      }),
    ),
  );
}

/** Marks the claim confirmed by the user who verified the claiming email. */
export async function confirmAdminSeat(email: string, userId: string): Promise<boolean> {
  return conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.adminSeat(),
        UpdateExpression: 'SET confirmed = :true, userId = :user REMOVE expiresAt',
        ConditionExpression: 'email = :email AND (confirmed = :false OR userId = :user)',
        ExpressionAttributeValues: { ':true': true, ':false': false, ':user': userId, ':email': email },
      }),
    ),
  );
}

async function readSeat(): Promise<SeatItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.adminSeat() }));
  return Item as SeatItem | undefined;
}

export async function adminExists(): Promise<boolean> {
  const seat = await readSeat();
  if (!seat) return false;
  return seat.confirmed || (seat.expiresAt ?? 0) > nowSeconds();
}

/**
 * Gives the seat to the admin the deploy created (AWS): confirmed at once. Running again for
 * the same user changes nothing; a seat another user holds confirmed is refused (false), as
 * the one-admin rule says.
 */
export async function seatDeployedAdmin(email: string, userId: string): Promise<boolean> {
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.adminSeat(), type: 'adminSeat', email, confirmed: true, userId },
        ConditionExpression: 'attribute_not_exists(pk) OR confirmed = :false OR userId = :user',
        ExpressionAttributeValues: { ':false': false, ':user': userId },
      }),
    ),
  );
}

/** The email of the confirmed admin, if there is one. */
export async function seatedAdminEmail(): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.adminSeat(), ConsistentRead: true }));
  const seat = Item as SeatItem | undefined;
  return seat?.confirmed ? seat.email : undefined;
}

/** The one admin's user id, once their seat is confirmed (disputes notify them). */
export async function adminUserId(): Promise<string | undefined> {
  const seat = await readSeat();
  return seat?.confirmed ? seat.userId : undefined;
}
