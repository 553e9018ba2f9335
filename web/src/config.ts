import { Amplify } from 'aws-amplify';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config';

/** Fetches /config.json: the same build runs against the local stack or AWS. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return runtimeConfigSchema.parse(await response.json());
}

export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
}
