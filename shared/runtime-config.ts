/**
 * The web app's runtime configuration, fetched from /config.json at start-up. In AWS the web
 * stack writes it from stack outputs; the local stack serves it from its own endpoints. The
 * same build runs against either.
 */
export interface RuntimeConfig {
  mode: 'local' | 'aws';
  region: string;
  /** HTTP API base URL, without a trailing slash. */
  apiUrl: string;
  /** WebSocket API URL (wss:// in AWS, ws:// locally). */
  webSocketUrl: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Local stack only: the Cognito endpoint (cognito-local behind our proxy). */
  userPoolEndpoint?: string;
  /** cognito-local supports only USER_PASSWORD_AUTH; AWS uses SRP. */
  authFlowType: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH';
  /** Local stack only: the mailbox page where sent emails (verification codes) can be read. */
  mailboxUrl?: string;
}
