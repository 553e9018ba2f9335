import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Role } from '../../shared/roles.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { localDynamoDbClient } from '../../infra/local/dynamodb.js';
import { RANDOM_PORTS, startLocalStack, type LocalStack, type LocalStackOptions } from '../../infra/local/stack.js';

/**
 * Starts a whole local stack for one test file — one per file: handler modules keep the SDK
 * clients they created, bound to the first stack's endpoints (its own table, user pool and ports, sharing
 * the run's DynamoDB Local) and stops it afterwards. Use the returned getter inside tests.
 */
export function useLocalStack(options: Pick<LocalStackOptions, 'webSocketLimits'> = {}): () => LocalStack {
  let stack: LocalStack | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'oddjobs-test-'));
    stack = await startLocalStack({
      dataDir,
      ports: RANDOM_PORTS,
      dynamoDbEndpoint: inject('dynamoDbEndpoint'),
      tableName: `test-${randomUUID()}`,
      ...options,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!stack) throw new Error('local stack not started');
    return stack;
  };
}

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
        { Name: 'custom:role', Value: input.role },
      ],
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

export async function createUser(stack: LocalStack, input: { role: Role; name?: string }): Promise<TestUser> {
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

/** A document client on the stack's table, for assertions on what was (or was not) written. */
export function tableClient(stack: LocalStack) {
  return DynamoDBDocumentClient.from(localDynamoDbClient(stack.urls.dynamodb));
}

/** Every item of a GSI partition (tests only: a small partition, read in full). */
export async function queryIndex(stack: LocalStack, index: 'GSI1' | 'GSI2' | 'GSI3', partition: string) {
  const attribute = `${index.toLowerCase()}pk`;
  const { Items = [] } = await tableClient(stack).send(
    new QueryCommand({
      TableName: stack.tableName,
      IndexName: index,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': attribute },
      ExpressionAttributeValues: { ':pk': partition },
    }),
  );
  return Items;
}
