import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminStatus, OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { ENV } from '../../functions/routes.js';
import { getProfile } from '../../functions/people/profiles.js';
import { keys } from '../../functions/table.js';
import { adminSeatCreateEvent, invokeAdminSeat } from '../support/admin-seat.js';
import { api, createUser, signUp, tableClient, useLocalStack } from '../support/local-stack.js';

/** What CloudFormation sends when a deploy changes the custom resource's properties. */
const updateEvent = (email: string, resendInvitation: string | undefined, previousResend: string | undefined) =>
  ({
    ...adminSeatCreateEvent(email),
    RequestType: 'Update',
    PhysicalResourceId: `admin-seat-${email}`,
    ResourceProperties: { ServiceToken: 'provider', AdminEmail: email, AdminName: 'Admin', ResendInvitation: resendInvitation },
    OldResourceProperties: { ServiceToken: 'provider', AdminEmail: email, AdminName: 'Admin', ResendInvitation: previousResend },
  }) as CloudFormationCustomResourceEvent;

describe('the admin seat when the deploy owns it (AWS)', () => {
  const stack = useLocalStack();
  const adminStatus = async () => (await api<AdminStatus>(stack(), 'GET', '/accounts/admin-status')).body;
  /** The pre-sign-up trigger as the deploy configures it in AWS. */
  const seatByDeploy = (value: 'true' | undefined) => stack().functions.updateEnvironment('preSignUp', { [ENV.adminSeatByDeploy]: value });
  /** The custom resource's function, run as Lambda runs it: its own environment and capabilities. */
  const seatAdmin = (event: CloudFormationCustomResourceEvent) => invokeAdminSeat(stack(), event);

  afterEach(() => seatByDeploy(undefined));

  it('refuses the admin role at public sign-up and leaves the seat alone; other roles sign up as before', async () => {
    seatByDeploy('true');
    await expect(signUp(stack(), { role: 'admin' })).rejects.toThrow(MSG.auth.adminExists);
    expect(await adminStatus()).toEqual({ adminExists: false });
    const worker = await createUser(stack(), { role: 'worker' });
    expect((await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body.role).toBe('worker');
  });

  it('seats the admin the deploy creates, with profile and confirmed seat, and running again changes nothing', async () => {
    const email = 'Owner@Example.com';
    const first = await seatAdmin(adminSeatCreateEvent(email));
    expect(first.PhysicalResourceId).toBe('admin-seat-owner@example.com');
    const userId = first.Data!.UserId!;
    expect(await getProfile(userId)).toMatchObject({ role: 'admin', email: 'owner@example.com' });
    expect(await adminStatus()).toEqual({ adminExists: true });

    expect((await seatAdmin(adminSeatCreateEvent(email))).Data).toEqual({ UserId: userId });
    // Even without the flag, the held seat refuses a public admin sign-up.
    await expect(signUp(stack(), { role: 'admin' })).rejects.toThrow(MSG.auth.adminExists);
    await expect(seatAdmin(adminSeatCreateEvent('someone-else@example.com'))).rejects.toThrow('The admin seat is held by owner@example.com');
  });

  it('mails the invitation again, with a new temporary password, for a new resendAdminInvitation value, until the admin has chosen a password', async () => {
    const email = 'resent-admin@example.com';
    const invitations = () => stack().mailbox.list(email).filter((mail) => mail.subject === 'Your temporary password');
    const cognito = new CognitoIdentityProviderClient({ endpoint: stack().urls.cognito, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
    // A fresh pool's seat: the earlier test's admin gives it up in the table.
    await tableClient(stack()).send(new DeleteCommand({ TableName: stack().tableName, Key: keys.adminSeat() }));
    await seatAdmin(adminSeatCreateEvent(email));
    // Creating the user mails the first invitation, as Cognito does.
    expect(invitations()).toHaveLength(1);

    await seatAdmin(updateEvent(email, '2026-11-26', undefined));
    expect(invitations()).toHaveLength(2);
    const temporaryPassword = invitations()[0]!.code!;
    expect(temporaryPassword).not.toBe(invitations()[1]!.code);
    // The temporary password signs in to Cognito's new-password step.
    const { ChallengeName } = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().userPool.clientId, AuthParameters: { USERNAME: email, PASSWORD: temporaryPassword } }),
    );
    expect(ChallengeName).toBe('NEW_PASSWORD_REQUIRED');

    // The same value again (any other deploy) mails nothing.
    await seatAdmin(updateEvent(email, '2026-11-26', '2026-11-26'));
    await seatAdmin(updateEvent(email, undefined, '2026-11-26'));
    expect(invitations()).toHaveLength(2);

    // Once the admin has chosen a password, a new value mails nothing either.
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: stack().userPool.userPoolId, Username: email, Password: 'chosen-password-1', Permanent: true }));
    await seatAdmin(updateEvent(email, '2026-11-27', undefined));
    expect(invitations()).toHaveLength(2);
  });
});
