import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { COGNITO_TRIGGERS } from '../../functions/routes.js';
import { USER_POOL_SETTINGS } from '../user-pool-settings.js';
import { CORS_HEADERS, listen, readBody, sendJson, type Listening } from './http-util.js';
import { poolClientId, storedUser, userOfRefreshToken } from './cognito.js';
import { invoke } from './lambda-runtime.js';
import type { Mailbox } from './mailbox.js';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

interface ProxyOptions {
  port: number;
  cognitoUrl: string;
  cognitoDataDir: string;
  userPoolId: string;
  mailbox: Mailbox;
}

interface Forwarded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function forward(cognitoUrl: string, target: string, body: Buffer, headers: Record<string, string>): Promise<Forwarded> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${cognitoUrl}/`,
      { method: 'POST', headers: { ...headers, 'x-amz-target': `${TARGET_PREFIX}${target}`, 'content-length': body.length } },
      async (res) => {
        const responseHeaders: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders[key] = value;
        resolve({ status: res.statusCode ?? 500, headers: responseHeaders, body: await readBody(res) });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A thin proxy in front of cognito-local that makes it behave like the Cognito our users
 * meet: every code the pool sends is delivered to the local mailbox, and the calls
 * cognito-local lacks are answered in its terms (ResendConfirmationCode with the stored code,
 * Amplify's GetTokensFromRefreshToken as REFRESH_TOKEN_AUTH, GlobalSignOut/RevokeToken,
 * AdminCreateUser's RESEND of an invitation, AdminUserGlobalSignOut revoking the user's refresh
 * tokens, AdminResetUserPassword mailing a reset code), a disabled user is refused sign-in and
 * refresh as Cognito refuses them (cognito-local stores AdminDisableUser but ignores it), and
 * the PreAuthentication trigger it does not support runs here before a password sign-in.
 * An invited user (AdminCreateUser) gets the temporary password by mail and meets Cognito's
 * NEW_PASSWORD_REQUIRED step as Cognito runs it: the temporary password is checked, the step's
 * session is one Cognito issued and still valid, and the new password follows the pool's policy.
 */
function isInvalidPassword(response: Forwarded): boolean {
  return response.status >= 400 && response.body.toString('utf8').includes('InvalidPasswordException');
}

/** Invokes our PreAuthentication handler as Cognito would; returns its refusal, if any. */
async function runPreAuthentication(userPoolId: string, clientId: string, user: NonNullable<Awaited<ReturnType<typeof storedUser>>>): Promise<string | null> {
  const event = {
    version: '1',
    region: 'us-east-1',
    userPoolId,
    userName: user.Username,
    triggerSource: 'PreAuthentication_Authentication',
    callerContext: { awsSdkVersion: 'local', clientId },
    request: { userAttributes: Object.fromEntries(user.Attributes.map((a) => [a.Name, a.Value])), validationData: {} },
    response: {},
  };
  try {
    await invoke('preAuthentication', COGNITO_TRIGGERS.preAuthentication, event);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Cognito's answer to a disabled user's sign-in or refresh. */
const USER_DISABLED = { __type: 'NotAuthorizedException', message: 'User is disabled.' };

/** When a refresh token was issued (cognito-local's are JWTs), in epoch seconds. */
function issuedAt(refreshToken: string): number {
  try {
    const payload = JSON.parse(Buffer.from(refreshToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat?: unknown };
    return typeof payload.iat === 'number' ? payload.iat : 0;
  } catch {
    return 0;
  }
}

/** How long Cognito accepts the answer to a sign-in challenge (the app client's default auth session validity). */
const CHALLENGE_SESSION_MS = 3 * 60 * 1000;

export async function serveCognitoProxy(options: ProxyOptions): Promise<Listening> {
  const { cognitoUrl, mailbox } = options;
  /** NEW_PASSWORD_REQUIRED sessions handed out, each with when it expires. */
  const challengeSessions = new Map<string, number>();

  /** When each user was last signed out globally (epoch seconds): refresh tokens issued before are revoked. Kept across runs. */
  const signedOutFile = join(options.cognitoDataDir, 'signed-out.json');
  const signedOutAt: Record<string, number> = existsSync(signedOutFile) ? (JSON.parse(readFileSync(signedOutFile, 'utf8')) as Record<string, number>) : {};

  /** Cognito's refusal of a refresh: the user is disabled, or was signed out globally since the token was issued. */
  const refreshRefusal = async (refreshToken: string) => {
    const user = await userOfRefreshToken(options.cognitoDataDir, options.userPoolId, refreshToken);
    if (user?.Enabled === false) return USER_DISABLED;
    if (user && issuedAt(refreshToken) <= (signedOutAt[user.Username] ?? -1)) return { __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' };
    return null;
  };

  const mailInvitation = (email: string, temporaryPassword: string) =>
    mailbox.deliver({
      to: email,
      code: temporaryPassword,
      subject: 'Your temporary password',
      text: `Your username is ${email} and your temporary password is ${temporaryPassword}.`,
    });

  const deliverTemporaryPassword = async (email: string) => {
    // As with codes, cognito-local writes the new user after answering.
    let user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
    for (let attempt = 0; !user?.Password && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
    }
    if (user?.Password) mailInvitation(email, user.Password);
  };

  const deliverCode = async (email: string, previousCode?: string) => {
    // cognito-local saves its file after answering: wait for the user's new code to be there.
    const isNew = (code: string | undefined) => code !== undefined && code !== previousCode;
    let user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
    for (let attempt = 0; !isNew(user?.ConfirmationCode) && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
    }
    if (!user?.ConfirmationCode || !isNew(user.ConfirmationCode)) return false;
    const code = user.ConfirmationCode;
    // The pool's one verification email, for a new address and a password reset alike, as Cognito sends it.
    const { subject, body } = USER_POOL_SETTINGS.verificationEmail;
    mailbox.deliver({ to: email, code, subject, text: body.replace('{####}', code) });
    return true;
  };

  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    const body = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '').replace(TARGET_PREFIX, '');
    const contentType = String(req.headers['content-type'] ?? 'application/x-amz-json-1.1');
    const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    const headers = { 'content-type': contentType, authorization: String(req.headers.authorization ?? '') };
    const reply = (status: number, payload: unknown) => sendJson(res, status, payload, { ...CORS_HEADERS, 'content-type': contentType });

    try {
      switch (target) {
        case 'ResendConfirmationCode': {
          const email = String(input.Username ?? '').toLowerCase();
          const user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
          if (!user) return reply(400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
          if (user.UserStatus === 'CONFIRMED') return reply(400, { __type: 'InvalidParameterException', message: 'User is already confirmed.' });
          await deliverCode(email);
          return reply(200, { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: email } });
        }
        case 'GetTokensFromRefreshToken': {
          const refusal = await refreshRefusal(String(input.RefreshToken ?? ''));
          if (refusal) return reply(400, refusal);
          const refreshed = await forward(
            cognitoUrl,
            'InitiateAuth',
            Buffer.from(JSON.stringify({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: input.ClientId, AuthParameters: { REFRESH_TOKEN: input.RefreshToken } })),
            headers,
          );
          const result = JSON.parse(refreshed.body.toString('utf8')) as { AuthenticationResult?: object };
          return reply(refreshed.status, refreshed.status === 200 ? { AuthenticationResult: result.AuthenticationResult } : result);
        }
        case 'InitiateAuth': {
          const parameters = (input.AuthParameters ?? {}) as Record<string, string>;
          if (input.AuthFlow === 'REFRESH_TOKEN_AUTH' || input.AuthFlow === 'REFRESH_TOKEN') {
            const refusal = await refreshRefusal(parameters.REFRESH_TOKEN ?? '');
            if (refusal) return reply(400, refusal);
          }
          const user = input.AuthFlow === 'USER_PASSWORD_AUTH' ? await storedUser(options.cognitoDataDir, options.userPoolId, parameters.USERNAME ?? '') : undefined;
          // Cognito refuses a disabled user before it looks at the password or runs a trigger.
          if (user?.Enabled === false) return reply(400, USER_DISABLED);
          if (user) {
            const refusal = await runPreAuthentication(options.userPoolId, String(input.ClientId ?? ''), user);
            if (refusal) return reply(400, { __type: 'UserLambdaValidationException', message: `PreAuthentication failed with error ${refusal}.` });
            // cognito-local asks an invited user for a new password without checking the temporary one.
            if (user.UserStatus === 'FORCE_CHANGE_PASSWORD' && user.Password !== parameters.PASSWORD) {
              return reply(400, { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
            }
          }
          break;
        }
        case 'RespondToAuthChallenge': {
          if (input.ChallengeName !== 'NEW_PASSWORD_REQUIRED') break;
          // cognito-local accepts any session; Cognito only its own, for a few minutes.
          const expiresAt = challengeSessions.get(String(input.Session ?? ''));
          if (expiresAt === undefined || expiresAt < Date.now()) {
            return reply(400, { __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
          }
          const responses = (input.ChallengeResponses ?? {}) as Record<string, string>;
          if ((responses.NEW_PASSWORD ?? '').length < USER_POOL_SETTINGS.passwordMinLength) {
            return reply(400, { __type: 'InvalidPasswordException', message: 'Password does not conform to policy: Password not long enough' });
          }
          break;
        }
        case 'GlobalSignOut':
        case 'RevokeToken':
          return reply(200, {});
        case 'AdminUserGlobalSignOut': {
          const user = await storedUser(options.cognitoDataDir, options.userPoolId, String(input.Username ?? ''));
          if (!user) return reply(400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
          signedOutAt[user.Username] = Math.floor(Date.now() / 1000);
          writeFileSync(signedOutFile, JSON.stringify(signedOutAt));
          return reply(200, {});
        }
        case 'AdminResetUserPassword': {
          // Cognito mails a reset code; cognito-local lacks the call, so its ForgotPassword makes the code.
          const user = await storedUser(options.cognitoDataDir, options.userPoolId, String(input.Username ?? ''));
          if (!user) return reply(400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
          const email = user.Attributes.find((attribute) => attribute.Name === 'email')?.Value.toLowerCase() ?? '';
          const forgot = { ClientId: await poolClientId(options.cognitoDataDir, options.userPoolId), Username: user.Username };
          const sent = await forward(cognitoUrl, 'ForgotPassword', Buffer.from(JSON.stringify(forgot)), headers);
          if (sent.status !== 200) return reply(sent.status, JSON.parse(sent.body.toString('utf8')));
          await deliverCode(email, user.ConfirmationCode);
          return reply(200, {});
        }
        case 'AdminCreateUser': {
          if (input.MessageAction !== 'RESEND') break;
          // cognito-local lacks RESEND; Cognito mails the invitation again with a new temporary
          // password, and only to a user who has not chosen one.
          const email = String(input.Username ?? '').toLowerCase();
          const user = await storedUser(options.cognitoDataDir, options.userPoolId, email);
          if (!user) return reply(400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
          if (user.UserStatus !== 'FORCE_CHANGE_PASSWORD') {
            return reply(400, { __type: 'UnsupportedUserStateException', message: 'Resend not possible. User status is not FORCE_CHANGE_PASSWORD.' });
          }
          const temporaryPassword = `Tmp-${randomBytes(6).toString('base64url')}`;
          const setPassword = { UserPoolId: input.UserPoolId, Username: user.Username, Password: temporaryPassword, Permanent: false };
          const set = await forward(cognitoUrl, 'AdminSetUserPassword', Buffer.from(JSON.stringify(setPassword)), headers);
          if (set.status !== 200) return reply(set.status, JSON.parse(set.body.toString('utf8')));
          mailInvitation(email, temporaryPassword);
          return reply(200, { User: { Username: user.Username, Attributes: user.Attributes, Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD' } });
        }
      }

      const username = String(input.Username ?? '').toLowerCase();
      const codeBefore = target === 'ForgotPassword' ? (await storedUser(options.cognitoDataDir, options.userPoolId, username))?.ConfirmationCode : undefined;
      const forwarded = await forward(cognitoUrl, target, body, headers);
      if ((target === 'InitiateAuth' || target === 'AdminInitiateAuth') && isInvalidPassword(forwarded)) {
        // Cognito answers a wrong password with NotAuthorizedException; cognito-local does not.
        return reply(400, { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      }
      if (forwarded.status === 200 && (target === 'SignUp' || target === 'ForgotPassword')) {
        await deliverCode(username, codeBefore);
      }
      if (forwarded.status === 200 && target === 'AdminCreateUser' && input.MessageAction !== 'SUPPRESS') await deliverTemporaryPassword(username);
      if (forwarded.status === 200 && (target === 'InitiateAuth' || target === 'RespondToAuthChallenge')) {
        if (target === 'RespondToAuthChallenge') challengeSessions.delete(String(input.Session ?? ''));
        const answer = JSON.parse(forwarded.body.toString('utf8')) as { ChallengeName?: string; Session?: string };
        if (answer.ChallengeName === 'NEW_PASSWORD_REQUIRED' && answer.Session) challengeSessions.set(answer.Session, Date.now() + CHALLENGE_SESSION_MS);
      }
      res.writeHead(forwarded.status, { ...CORS_HEADERS, 'content-type': forwarded.headers['content-type'] ?? contentType });
      res.end(forwarded.body);
    } catch (error) {
      reply(500, { __type: 'InternalErrorException', message: error instanceof Error ? error.message : String(error) });
    }
  });
  return listen(server, options.port);
}
