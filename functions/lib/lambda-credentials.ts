/**
 * The credentials of every AWS SDK client in a Lambda bundle: the execution role's keys, which
 * Lambda puts in the environment. FUNCTION_BUNDLE puts this module in place of the SDK's
 * default chain (profiles, SSO, web identity, container and instance metadata: some 130 KB of
 * every bundle, compiled at each cold start), whose first link in Lambda is this same one and
 * which never goes further there. The local stack does not bundle, and keeps the whole chain.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
