import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { env, optionalEnv } from './env.js';

export interface IdTokenVerifier {
  verify(token: string): Promise<JwtPayload>;
}

/** Plain `fetch`, because cognito-local serves its JWKS over http (local stack only). */
const httpJwksFetcher = {
  fetch: async (uri: string): Promise<ArrayBuffer> => {
    const response = await fetch(uri);
    if (!response.ok) throw new Error(`JWKS fetch failed: ${response.status}`);
    return response.arrayBuffer();
  },
};

/**
 * Verifies Cognito ID tokens for code that is not behind the HTTP API's JWT authorizer (the
 * WebSocket authorizer, the local gateway). In AWS it is Cognito's verifier; only when the
 * local stack sets LOCAL_JWKS_URI does it trust cognito-local's http issuer instead.
 */
export function createIdTokenVerifier(): IdTokenVerifier {
  const audience = env('userPoolClientId');
  const localJwksUri = optionalEnv('localJwksUri');
  if (localJwksUri) {
    return JwtRsaVerifier.create(
      {
        issuer: env('tokenIssuer'),
        audience,
        jwksUri: localJwksUri,
        customJwtCheck: ({ payload }) => {
          if (payload.token_use !== 'id') throw new Error('Not an ID token');
        },
      },
      { jwksCache: new SimpleJwksCache({ fetcher: httpJwksFetcher }) },
    );
  }
  return CognitoJwtVerifier.create({ userPoolId: env('userPoolId'), tokenUse: 'id', clientId: audience });
}
