import {
  AdminCreateUserCommand,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import type { AdminStatus, OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { keys } from '../../functions/table.js';
import { api, confirm, queryIndex, signIn, signUp, uniqueEmail, useLocalStack } from '../support/local-stack.js';
import { USER_POOL_SETTINGS } from '../../infra/user-pool-settings.js';
import { SIGN_UP_ROLE_METADATA } from '../../shared/roles.js';

describe('accounts: roles and the one admin', () => {
  const stack = useLocalStack();

  it('lets exactly one of two simultaneous admin sign-ups win, atomically', async () => {
    expect((await api<AdminStatus>(stack(), 'GET', '/accounts/admin-status')).body).toEqual({ adminExists: false });

    const attempts = await Promise.allSettled([signUp(stack(), { role: 'admin' }), signUp(stack(), { role: 'admin' })]);
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(String(lost[0]!.reason.message)).toContain(MSG.auth.adminExists);
    expect((await api<AdminStatus>(stack(), 'GET', '/accounts/admin-status')).body).toEqual({ adminExists: true });

    // The winner verifies, lands in the admin group, and the token says so.
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof signUp>>>).value;
    await confirm(stack(), winner.email);
    const token = await signIn(stack(), winner.email, winner.password);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims['cognito:groups']).toEqual(['admin']);
    expect((await api<OwnProfile>(stack(), 'GET', '/me', { token })).body.role).toBe('admin');

    // Later admin sign-ups are refused too.
    await expect(signUp(stack(), { role: 'admin' })).rejects.toThrow(MSG.auth.adminExists);
  });

  it('refuses an unknown role or a missing name at sign-up, even from a direct API call', async () => {
    const cognito = cognitoClient(stack().urls.cognito);
    const email = uniqueEmail('direct');
    const attempt = (attributes: Array<{ Name: string; Value: string }>, role?: string) =>
      cognito.send(
        new SignUpCommand({
          ClientId: stack().userPool.clientId,
          Username: email,
          Password: 'correct-horse-42',
          UserAttributes: attributes,
          ClientMetadata: role === undefined ? undefined : { [SIGN_UP_ROLE_METADATA]: role },
        }),
      );
    await expect(attempt([{ Name: 'email', Value: email }, { Name: 'name', Value: 'X' }], 'superuser')).rejects.toThrow(MSG.auth.invalidRole);
    await expect(attempt([{ Name: 'email', Value: email }], 'worker')).rejects.toThrow(MSG.auth.allFieldsRequired);
    // The role is never taken from a user attribute, which the web client may not write.
    await expect(attempt([{ Name: 'email', Value: email }, { Name: 'name', Value: 'X' }, { Name: 'custom:role', Value: 'worker' }])).rejects.toThrow(
      MSG.auth.allFieldsRequired,
    );
  });

  it('mails the verification code and mails it again on resend', async () => {
    const { email } = await signUp(stack(), { role: 'worker' });
    const first = stack().mailbox.list(email);
    expect(first).toHaveLength(1);
    expect(first[0]!.code).toMatch(/^\d{6}$/);

    const response = await fetch(stack().urls.cognito, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.ResendConfirmationCode' },
      body: JSON.stringify({ ClientId: stack().userPool.clientId, Username: email }),
    });
    expect(response.status).toBe(200);
    expect(stack().mailbox.list(email)).toHaveLength(2);
  });

  it('resets a forgotten password with the code from the mailbox', async () => {
    const { email } = await signUp(stack(), { role: 'poster' });
    await confirm(stack(), email);
    const cognito = cognitoClient(stack().urls.cognito);
    await cognito.send(new ForgotPasswordCommand({ ClientId: stack().userPool.clientId, Username: email }));
    const mail = stack().mailbox.list(email)[0]!;
    expect(mail.subject).toBe(USER_POOL_SETTINGS.verificationEmail.subject);
    await cognito.send(
      new ConfirmForgotPasswordCommand({ ClientId: stack().userPool.clientId, Username: email, ConfirmationCode: mail.code, Password: 'brand-new-pass-9' }),
    );
    expect(await signIn(stack(), email, 'brand-new-pass-9')).toMatch(/^ey/);
  });

  it("runs an invited user's first sign-in as Cognito does: the mailed temporary password, then a new one", async () => {
    const email = uniqueEmail('invited');
    const cognito = cognitoClient(stack().urls.cognito);
    const { clientId, userPoolId } = stack().userPool;
    // As the deploy creates its admin (functions/people/deploy/admin-seat.ts): no password given, the invitation by email.
    await cognito.send(new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: email, DesiredDeliveryMediums: ['EMAIL'], UserAttributes: [{ Name: 'email', Value: email }] }));
    const invitation = stack().mailbox.list(email)[0]!;
    expect(invitation.subject).toBe('Your temporary password');
    const temporaryPassword = invitation.code!;

    const start = (password: string) => cognito.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }));
    const answer = (session: string | undefined, newPassword: string) =>
      cognito.send(new RespondToAuthChallengeCommand({ ClientId: clientId, ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: session, ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword } }));

    await expect(start('not-the-temporary-one')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const challenge = await start(temporaryPassword);
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    await expect(answer('a-session-cognito-never-issued', 'chosen-pass-1')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(answer(challenge.Session, 'short')).rejects.toMatchObject({ name: 'InvalidPasswordException' });

    const signedIn = await answer(challenge.Session, 'chosen-pass-1');
    expect(signedIn.AuthenticationResult?.IdToken).toMatch(/^ey/);
    // The step's session is spent, and the temporary password no longer opens the account.
    await expect(answer(challenge.Session, 'chosen-pass-2')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(start(temporaryPassword)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await start('chosen-pass-1')).AuthenticationResult?.IdToken).toMatch(/^ey/);
  });

  it('limits sign-in attempts to 5 per 15 minutes per email, even for direct calls, and alerts the admin', async () => {
    const { email, password } = await signUp(stack(), { role: 'worker' });
    await confirm(stack(), email);
    // Failures below the limit are cleared by a successful sign-in.
    for (let i = 0; i < 4; i++) await expect(signIn(stack(), email, 'wrong-password')).rejects.toThrow();
    await signIn(stack(), email, password);
    for (let i = 0; i < 5; i++) await expect(signIn(stack(), email, 'wrong-password')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(signIn(stack(), email, password)).rejects.toThrow(MSG.auth.tooManySignIns);
    const alerts = (await queryIndex(stack(), 'GSI1', keys.adminActionsLog())).filter((item) => item.actionType === 'repeated_auth_failures');
    expect(alerts.map((alert) => alert.details)).toEqual([{ email }]);
  });

  it('limits sign-up attempts per email', async () => {
    const email = uniqueEmail('again');
    const reasons: string[] = [];
    for (let i = 0; i < 6; i++) {
      await signUp(stack(), { role: 'superuser' as never, email }).catch((error: Error) => reasons.push(error.message));
    }
    expect(reasons.slice(0, 5).every((reason) => reason.includes(MSG.auth.invalidRole))).toBe(true);
    expect(reasons[5]).toContain(MSG.auth.tooManySignUps);
  });

  it('answers 404 "Profile not found" for a signed-in user without a profile', async () => {
    const missing = await api(stack(), 'GET', '/profiles/nobody', {
      token: await (async () => {
        const { email, password } = await signUp(stack(), { role: 'worker' });
        await confirm(stack(), email);
        return signIn(stack(), email, password);
      })(),
    });
    expect(missing).toEqual({ status: 404, body: { error: MSG.auth.profileNotFound } });
  });
});
