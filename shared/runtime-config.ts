import * as z from './zod.js';

/**
 * The web app's runtime configuration, fetched from /config.json at start-up. In AWS the web
 * stack writes it from stack outputs; the local stack serves it from its own endpoints. The
 * same build runs against either.
 */
export const runtimeConfigSchema = z.object({
  mode: z.enum(['local', 'aws']),
  region: z.string(),
  /** HTTP API base URL, without a trailing slash. */
  apiUrl: z.string().check(z.minLength(1)),
  /** WebSocket API URL (wss:// in AWS, ws:// locally). */
  webSocketUrl: z.string().check(z.minLength(1)),
  userPoolId: z.string().check(z.minLength(1)),
  userPoolClientId: z.string().check(z.minLength(1)),
  /** Local stack only: the Cognito endpoint (cognito-local behind our proxy). */
  userPoolEndpoint: z.optional(z.string()),
  /** cognito-local supports only USER_PASSWORD_AUTH; AWS uses SRP. */
  authFlowType: z.enum(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH']),
  /** Local stack only: the mailbox page where sent emails (verification codes) can be read. */
  mailboxUrl: z.optional(z.string()),
  /**
   * Card payments: Stripe Elements with this publishable key in AWS; locally a plain card form
   * that confirms against the Stripe test-mode simulator at `simulatorUrl`.
   */
  stripe: z.object({ publishableKey: z.string().check(z.minLength(1)), simulatorUrl: z.optional(z.string()) }),
  /**
   * AWS only: the deploy itself created the admin (the `adminEmail` context value), so public
   * sign-up shows the admin option as taken and the pre-sign-up trigger refuses it.
   */
  adminSeatByDeploy: z.optional(z.boolean()),
  /**
   * The map of search results (issue 46): AWS only, an Amazon Location map's style with an API
   * key limited to the site's origin. Locally the map draws its pins and rings on a plain
   * background (no tiles offline).
   */
  map: z.optional(z.object({ styleUrl: z.string().check(z.minLength(1)) })),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
