import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const CONTENT_TYPE = { 'content-type': 'application/x-amz-json-1.1' };

interface StoredSecret {
  readonly arn: string;
  readonly name: string;
  readonly createdDate: number;
  /** The AWSCURRENT version. */
  versionId: string;
  secretString: string;
}

export interface LocalSecretsManager extends Listening {
  /** Creates a secret (the deploy's stacks create theirs) and answers its ARN. */
  create(name: string, secretString: string): string;
}

class SecretsManagerError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** An ARN as Secrets Manager forms it: the name, then a dash and six random characters. */
const secretArn = (name: string) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-${randomBytes(6).toString('base64url').slice(0, 6)}`;

/**
 * Secrets Manager's JSON API for the calls the functions and an operator make on the local
 * stack's secrets: GetSecretValue (the functions, by ARN), PutSecretValue (a rotation, as
 * `aws secretsmanager put-secret-value` does it) and DescribeSecret. A secret is found by ARN
 * or name; only its current version is kept. In memory: the local stack creates its secrets
 * at every start.
 */
export async function serveSecretsManager(port: number): Promise<LocalSecretsManager> {
  const secrets = new Map<string, StoredSecret>();
  const find = (id: unknown) => {
    const secret = typeof id === 'string' ? (secrets.get(id) ?? [...secrets.values()].find((candidate) => candidate.name === id)) : undefined;
    if (!secret) throw new SecretsManagerError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  };
  const seconds = (time: number) => time / 1000;
  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    GetSecretValue: ({ SecretId }) => {
      const secret = find(SecretId);
      return { ARN: secret.arn, Name: secret.name, VersionId: secret.versionId, SecretString: secret.secretString, VersionStages: ['AWSCURRENT'], CreatedDate: seconds(secret.createdDate) };
    },
    PutSecretValue: ({ SecretId, SecretString, ClientRequestToken }) => {
      const secret = find(SecretId);
      if (typeof SecretString !== 'string') throw new SecretsManagerError('InvalidRequestException', 'You must provide either SecretString or SecretBinary.');
      secret.versionId = typeof ClientRequestToken === 'string' ? ClientRequestToken : randomUUID();
      secret.secretString = SecretString;
      return { ARN: secret.arn, Name: secret.name, VersionId: secret.versionId, VersionStages: ['AWSCURRENT'] };
    },
    DescribeSecret: ({ SecretId }) => {
      const secret = find(SecretId);
      return { ARN: secret.arn, Name: secret.name, CreatedDate: seconds(secret.createdDate), VersionIdsToStages: { [secret.versionId]: ['AWSCURRENT'] } };
    },
  };
  const server = createServer(
    guarded('secretsmanager', async (req, res) => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^secretsmanager\./, '');
      const handler = operations[operation];
      try {
        if (!handler) throw new SecretsManagerError('UnknownOperationException', `The local Secrets Manager does not implement ${operation || 'this call'}`);
        let input: unknown;
        try {
          input = JSON.parse((await readBody(req)).toString('utf8') || '{}');
        } catch {
          throw new SecretsManagerError('SerializationException', 'The request body is not valid JSON');
        }
        sendJson(res, 200, handler((input ?? {}) as Record<string, unknown>), CONTENT_TYPE);
      } catch (error) {
        if (!(error instanceof SecretsManagerError)) throw error;
        sendJson(res, 400, { __type: error.type, message: error.message }, { ...CONTENT_TYPE, 'x-amzn-errortype': error.type });
      }
    }),
  );
  const listening = await listen(server, port);
  return {
    ...listening,
    create: (name, secretString) => {
      const arn = secretArn(name);
      secrets.set(arn, { arn, name, createdDate: Date.now(), versionId: randomUUID(), secretString });
      return arn;
    },
  };
}
