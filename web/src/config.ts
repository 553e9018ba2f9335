import { Amplify } from 'aws-amplify';
import { z } from 'zod';
import type { RuntimeConfig } from '../../shared/runtime-config';

const runtimeConfigSchema = z.object({
  mode: z.enum(['local', 'aws']),
  region: z.string(),
  apiUrl: z.string().min(1),
  webSocketUrl: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  userPoolEndpoint: z.string().optional(),
  authFlowType: z.enum(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH']),
  mailboxUrl: z.string().optional(),
}) satisfies z.ZodType<RuntimeConfig>;

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
