import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  type ExplicitAuthFlowsType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { COGNITO_TRIGGERS } from '../../functions/routes.js';
import { USER_POOL_SETTINGS } from '../user-pool-settings.js';
import { spawnGroup, stopGroup, waitWhileRunning } from './processes.js';

export interface LocalCognito {
  /** cognito-local itself; clients should use the proxy in front of it. */
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The triggers cognito-local invokes itself, by its PascalCase names. It has no
 * PreAuthentication trigger: our proxy (cognito-proxy.ts) runs that one.
 */
const NATIVE_TRIGGERS = {
  PreSignUp: 'preSignUp',
  PostConfirmation: 'postConfirmation',
  PostAuthentication: 'postAuthentication',
} as const satisfies Record<string, keyof typeof COGNITO_TRIGGERS>;

/**
 * Starts cognito-local in its own folder. Its user pool triggers call our handlers through
 * the local Lambda Invoke API at `lambdaEndpoint`; its tokens name `url` as their issuer.
 */
export async function startCognitoLocal(options: { dataDir: string; port: number; lambdaEndpoint: string }): Promise<LocalCognito> {
  const url = `http://127.0.0.1:${options.port}`;
  const configDir = join(options.dataDir, '.cognito');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify(
      {
        TokenConfig: { IssuerDomain: url },
        TriggerFunctions: NATIVE_TRIGGERS,
        LambdaClient: {
          endpoint: options.lambdaEndpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          maxRetries: 0,
        },
      },
      null,
      2,
    ),
  );
  await repairDatabaseFiles(configDir);
  const bin = createRequire(import.meta.url).resolve('cognito-local/lib/bin/start.js');
  const child = spawnGroup(process.execPath, [bin], {
    cwd: options.dataDir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(options.port) },
    name: 'cognito',
  });
  try {
    await waitWhileRunning('cognito-local', child, async () => {
      const response = await fetch(`${url}/health`).catch(() => undefined);
      return response !== undefined;
    });
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
  return { url, dataDir: options.dataDir, stop: () => stopGroup(child) };
}

export interface LocalUserPool {
  userPoolId: string;
  clientId: string;
}

export function cognitoClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** Creates a pool like the CDK auth stack's (email username, custom:role, admin group, flows). */
export async function createUserPool(cognitoUrl: string, name: string): Promise<LocalUserPool> {
  const client = cognitoClient(cognitoUrl);
  try {
    const { UserPool } = await client.send(
      new CreateUserPoolCommand({
        PoolName: name,
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        Policies: { PasswordPolicy: { MinimumLength: USER_POOL_SETTINGS.passwordMinLength } },
        Schema: [
          { Name: 'email', AttributeDataType: 'String', Required: true, Mutable: true },
          { Name: 'name', AttributeDataType: 'String', Required: true, Mutable: true },
          ...Object.entries(USER_POOL_SETTINGS.customAttributes).map(([attribute, settings]) => ({
            Name: attribute,
            AttributeDataType: 'String' as const,
            Mutable: true,
            StringAttributeConstraints: { MaxLength: String(settings.maxLength) },
          })),
        ],
      }),
    );
    const userPoolId = UserPool!.Id!;
    const { UserPoolClient } = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: `${name}-web`,
        ExplicitAuthFlows: [...USER_POOL_SETTINGS.localClientAuthFlows] as ExplicitAuthFlowsType[],
      }),
    );
    for (const group of USER_POOL_SETTINGS.groups) {
      await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group }));
    }
    return { userPoolId, clientId: UserPoolClient!.ClientId! };
  } finally {
    client.destroy();
  }
}

interface StoredUser {
  Username: string;
  UserStatus: string;
  /** cognito-local keeps passwords as given (an invited user's is the temporary one). */
  Password?: string;
  ConfirmationCode?: string;
  /** false once AdminDisableUser ran (cognito-local stores it but still lets the user sign in). */
  Enabled?: boolean;
  RefreshTokens?: string[];
  Attributes: Array<{ Name: string; Value: string }>;
}

/**
 * Reads one of cognito-local's database files. It rewrites them with overlapping async
 * writes, so a file can hold the newest document followed by the tail of an older, longer
 * one: the leading JSON document is the current state. A read that catches a file half
 * written is retried.
 */
async function readDatabaseFile<T>(file: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const text = readFileSync(file, 'utf8');
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      const trailing = error instanceof SyntaxError ? /after JSON at position (\d+)/.exec(error.message) : null;
      if (trailing) return JSON.parse(text.slice(0, Number(trailing[1]))) as T;
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Repairs database files a previous run left with a stale tail, before cognito-local loads them. */
async function repairDatabaseFiles(configDir: string): Promise<void> {
  const dbDir = join(configDir, 'db');
  if (!existsSync(dbDir)) return;
  for (const name of readdirSync(dbDir).filter((file) => file.endsWith('.json'))) {
    const file = join(dbDir, name);
    writeFileSync(file, JSON.stringify(await readDatabaseFile(file)));
  }
}

async function storedUsers(dataDir: string, userPoolId: string): Promise<StoredUser[]> {
  const file = join(dataDir, '.cognito', 'db', `${userPoolId}.json`);
  if (!existsSync(file)) return [];
  return Object.values((await readDatabaseFile<{ Users?: Record<string, StoredUser> }>(file)).Users ?? {});
}

/** A user as cognito-local stored it (by username, sub or email), with their pending code: the reliable source of codes. */
export async function storedUser(dataDir: string, userPoolId: string, email: string): Promise<StoredUser | undefined> {
  const address = email.trim().toLowerCase();
  return (await storedUsers(dataDir, userPoolId)).find(
    (user) => user.Username.toLowerCase() === address || user.Attributes.some((a) => (a.Name === 'email' || a.Name === 'sub') && a.Value.toLowerCase() === address),
  );
}

/** The user a refresh token was issued to, as cognito-local finds it. */
export async function userOfRefreshToken(dataDir: string, userPoolId: string, refreshToken: string): Promise<StoredUser | undefined> {
  return (await storedUsers(dataDir, userPoolId)).find((user) => user.RefreshTokens?.includes(refreshToken));
}

/** The pool's app client (the local pool has one): cognito-local's ForgotPassword finds the pool by it. */
export async function poolClientId(dataDir: string, userPoolId: string): Promise<string | undefined> {
  const file = join(dataDir, '.cognito', 'db', 'clients.json');
  if (!existsSync(file)) return undefined;
  const { Clients = {} } = await readDatabaseFile<{ Clients?: Record<string, { ClientId: string; UserPoolId: string }> }>(file);
  return Object.values(Clients).find((client) => client.UserPoolId === userPoolId)?.ClientId;
}
