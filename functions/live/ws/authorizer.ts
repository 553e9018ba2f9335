import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { ANONYMOUS_PRINCIPAL } from '../../../shared/live.js';
import { WEBSOCKET_API } from '../../routes.js';
import { logger, withLogContext } from '../../lib/logger.js';
import { createIdTokenVerifier } from '../../lib/tokens.js';

/** Visitors connect with this token and receive only the public job feed. */
export const ANONYMOUS_TOKEN = 'anonymous';

let verifier: ReturnType<typeof createIdTokenVerifier> | undefined;

function policy(principalId: string, effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
    context: { userId: principalId },
  };
}

/** $connect authorizer: a valid ID token makes the connection the user's. */
async function handle(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const token = event.queryStringParameters?.[WEBSOCKET_API.identityQueryParameter] ?? '';
  if (token === ANONYMOUS_TOKEN) return policy(ANONYMOUS_PRINCIPAL, 'Allow', event.methodArn);
  try {
    verifier ??= createIdTokenVerifier();
    const payload = await verifier.verify(token);
    return policy(String(payload.sub), 'Allow', event.methodArn);
  } catch (error) {
    logger.info('websocket token rejected', { error });
    return policy('rejected', 'Deny', event.methodArn);
  }
}

export const handler = withLogContext(handle);
