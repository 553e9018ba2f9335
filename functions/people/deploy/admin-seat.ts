import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ADMIN_GROUP } from '../../../shared/roles.js';
import { seatDeployedAdmin, seatedAdminEmail } from '../admin-seat.js';
import { createProfileOnce, newProfile } from '../profiles.js';
import { env } from '../../lib/env.js';
import { logger, withLogContext } from '../../lib/logger.js';

const cognito = new CognitoIdentityProviderClient({});

/** What the stack passes to the custom resource. */
export interface AdminSeatProperties {
  AdminEmail: string;
  AdminName: string;
  /**
   * A value new to this deploy (`-c resendAdminInvitation=<value>`) mails the invitation again,
   * with a new temporary password, while the admin has not yet chosen one (its first one
   * expires after 7 days). Absent or unchanged, nothing is sent.
   */
  ResendInvitation?: string;
}

const subOf = (attributes: AttributeType[] | undefined) => attributes?.find((attribute) => attribute.Name === 'sub')?.Value;

/** Creates the user with Cognito's invitation (a temporary password by email), or finds the one created before. */
async function createAdminUser(userPoolId: string, email: string, name: string): Promise<string> {
  try {
    const { User } = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'name', Value: name },
          { Name: 'custom:role', Value: 'admin' },
        ],
      }),
    );
    return subOf(User?.Attributes)!;
  } catch (error) {
    if (!(error instanceof Error && error.name === 'UsernameExistsException')) throw error;
    return subOf((await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }))).UserAttributes)!;
  }
}

/** Mails the invitation again if the admin has not signed in yet; answers whether it did. */
async function resendInvitation(userPoolId: string, email: string): Promise<boolean> {
  const { UserStatus } = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
  if (UserStatus !== 'FORCE_CHANGE_PASSWORD') return false;
  await cognito.send(new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: email, MessageAction: 'RESEND', DesiredDeliveryMediums: ['EMAIL'] }));
  return true;
}

/**
 * The deploy's admin (AWS): a CloudFormation custom resource that creates the `adminEmail`
 * user with an invitation, adds it to the admin group and writes what post-confirmation
 * would have written (the confirmed seat and the profile). Public sign-up never offers the
 * seat in AWS. Every step is safe to repeat; deleting the resource keeps the admin.
 */
async function handle(event: CloudFormationCustomResourceEvent): Promise<{ PhysicalResourceId: string; Data?: Record<string, string> }> {
  const { AdminEmail, AdminName, ResendInvitation } = event.ResourceProperties as unknown as AdminSeatProperties & { ServiceToken: string };
  const email = AdminEmail.trim().toLowerCase();
  const physicalResourceId = `admin-seat-${email}`;
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };

  const heldBy = await seatedAdminEmail();
  // Checked before anything is created: another admin's seat leaves no stray user behind.
  const refusal = () => new Error(`The admin seat is held by ${heldBy ?? 'another user'}; adminEmail (${email}) cannot take it. Hand the seat over in the table first.`);
  if (heldBy && heldBy !== email) throw refusal();

  const userPoolId = env('userPoolId');
  const userId = await createAdminUser(userPoolId, email, AdminName);
  if (!(await seatDeployedAdmin(email, userId))) throw refusal();
  await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: email, GroupName: ADMIN_GROUP }));
  const created = await createProfileOnce(newProfile({ id: userId, name: AdminName, email, role: 'admin', now: new Date().toISOString() }));
  logger.info('admin seated by the deploy', { userId, profileCreated: created });
  const previousResend = event.RequestType === 'Update' ? (event.OldResourceProperties as Partial<AdminSeatProperties>).ResendInvitation : undefined;
  if (ResendInvitation && ResendInvitation !== previousResend) {
    const resent = await resendInvitation(userPoolId, email);
    logger.info(resent ? 'admin invitation mailed again' : 'admin invitation not mailed again: the admin has chosen a password', { userId });
  }
  return { PhysicalResourceId: physicalResourceId, Data: { UserId: userId } };
}

export const handler = withLogContext(handle);
