/**
 * What run.ts (the load's coordinator, one HTTP server) and the virtual users in Artillery's
 * worker threads (processor.ts) say to each other: the run's settings, the users made before
 * the run, and what each chat socket saw, for the consistency check after it.
 */

export type LoadRole = 'poster' | 'worker' | 'chat';

export interface LoadSettings {
  apiUrl: string;
  webSocketUrl: string;
  /** Where InitiateAuth is sent (the local proxy, or Cognito's regional endpoint). */
  cognitoUrl: string;
  clientId: string;
  authFlow: 'USER_PASSWORD_AUTH';
  /** Stripe's API for the card step as Stripe.js does it (the simulator locally). */
  stripeApiUrl: string;
  stripePublishableKey: string;
  /** Epoch ms: no virtual user starts another round after it. */
  endsAt: number;
}

export interface LoadUser {
  userId: string;
  email: string;
  password: string;
}

/** A chat seat: one party of a conversation made before the run. */
export interface ChatSeat extends LoadUser {
  conversationId: string;
}

export type Claimed = { role: 'poster' | 'worker'; user: LoadUser } | { role: 'chat'; user: ChatSeat };

/**
 * A message one chat virtual user sent, with the answer's status and when the request started
 * (epoch ms): a send reads the parties' connections when it starts, so a socket that opened
 * after that catches up over HTTP instead of receiving the push (functions/chat/conversations.ts).
 */
export interface SentMessage {
  id: string;
  conversationId: string;
  senderId: string;
  status: number;
  startedAt: number;
}

/** What one chat socket received: each pushed message id with how often it came, and when it was open (epoch ms). */
export interface SocketRecord {
  userId: string;
  conversationId: string;
  openedAt: number;
  closedAt: number;
  received: Record<string, number>;
  sent: SentMessage[];
}

/** Paths of the coordinator. */
export const COORDINATOR = { settings: '/settings', claim: '/claim', socket: '/socket' } as const;

/** After its last send, a chat socket stays open this long for the last pushes: what was sent before that must have arrived by then. */
export const CHAT_GRACE_MS = 3_000;
