import { randomUUID } from 'node:crypto';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { SIGN_UP_ROLE_METADATA, type Role } from '../../shared/roles.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import type { LocalStack } from '../../infra/local/stack.js';

/*
 * Users and API calls on a running local stack, without vitest: the benchmarks use them too.
 * Tests import them through local-stack.ts.
 */

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  idToken: string;
}

export const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** Signs up through the user pool, reads the code from the mailbox, verifies, signs in. */
export async function signUp(stack: LocalStack, input: { role: Role; name?: string; email?: string; password?: string }) {
  const email = input.email ?? uniqueEmail(input.role);
  const password = input.password ?? 'correct-horse-42';
  const cognito = cognitoClient(stack.urls.cognito);
  const { UserSub } = await cognito.send(
    new SignUpCommand({
      ClientId: stack.userPool.clientId,
      Username: email,
      Password: password,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: input.name ?? `Test ${input.role}` },
      ],
      ClientMetadata: { [SIGN_UP_ROLE_METADATA]: input.role },
    }),
  );
  return { cognito, email, password, userId: UserSub! };
}

export function latestCode(stack: LocalStack, email: string): string {
  const code = stack.mailbox.list(email)[0]?.code;
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

export async function confirm(stack: LocalStack, email: string): Promise<void> {
  await cognitoClient(stack.urls.cognito).send(
    new ConfirmSignUpCommand({ ClientId: stack.userPool.clientId, Username: email, ConfirmationCode: latestCode(stack, email) }),
  );
}

export async function signIn(stack: LocalStack, email: string, password: string): Promise<string> {
  const result = await cognitoClient(stack.urls.cognito).send(
    new InitiateAuthCommand({
      ClientId: stack.userPool.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  return result.AuthenticationResult!.IdToken!;
}

export async function createUser(stack: LocalStack, input: { role: Role; name?: string; email?: string }): Promise<TestUser> {
  const { email, password, userId } = await signUp(stack, input);
  await confirm(stack, email);
  return { userId, email, password, idToken: await signIn(stack, email, password) };
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

/** Calls the local HTTP gateway as the browser does. */
export async function api<T = unknown>(
  stack: LocalStack,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const response = await fetch(`${stack.urls.api}${path}`, {
    method,
    headers: {
      ...options.headers,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
