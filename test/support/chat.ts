import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { ChatMessage, ConversationView, LiveMessage, Page } from '../../shared/api.js';
import { mergeMessages } from '../../shared/chat.js';
import type { LocalStack } from '../../infra/local/stack.js';
import { api, type TestUser } from './stack-api.js';

/** The worker starts (or reopens) the conversation about a job. */
export async function startConversation(stack: LocalStack, user: TestUser, body: { jobId: string; workerId?: string }): Promise<ConversationView> {
  const response = await api<ConversationView>(stack, 'POST', '/conversations', { token: user.idToken, body });
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST /conversations: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export function sendMessage(stack: LocalStack, user: TestUser, conversationId: string, content: string, id: string = randomUUID()) {
  return api<{ message: ChatMessage; questionSent: boolean; error?: string }>(stack, 'POST', `/conversations/${conversationId}/messages`, {
    token: user.idToken,
    body: { id, content },
  });
}

export async function unreadTotal(stack: LocalStack, user: TestUser): Promise<number> {
  return (await api<{ total: number }>(stack, 'GET', '/me/unread-messages', { token: user.idToken })).body.total;
}

/** The messages after a position, following the cursor (without one: the latest page). */
export async function messagesAfter(stack: LocalStack, user: TestUser, conversationId: string, after: string | null): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [];
  for (let cursor = after; ; ) {
    const query = cursor ? `?after=${encodeURIComponent(cursor)}` : '';
    const page = await api<Page<ChatMessage>>(stack, 'GET', `/conversations/${conversationId}/messages${query}`, { token: user.idToken });
    if (page.status !== 200) throw new Error(`GET messages: ${page.status}`);
    messages.push(...page.body.items);
    if (!page.body.nextCursor) return messages;
    cursor = page.body.nextCursor;
  }
}

/**
 * What a browser tab of the chat does, in Node: one socket as `user`, reopened with backoff
 * when the gateway drops it, and on every reopen the messages after the last one seen are
 * read and merged by id (shared/chat.ts mergeMessages, as the web app does).
 */
export class ChatClient {
  /** The conversation as this client shows it. */
  messages: ChatMessage[] = [];
  /** Every chat.message push received, in arrival order, with when it arrived. */
  readonly pushes: Array<{ message: ChatMessage; receivedAt: number }> = [];
  drops = 0;
  private socket: WebSocket | null = null;
  private closed = false;
  private droppedWaiters: Array<() => void> = [];

  constructor(
    private readonly stack: LocalStack,
    private readonly user: TestUser,
    private readonly conversationId: string,
  ) {}

  async open(): Promise<void> {
    await this.connect();
  }

  /** Resolves at the next drop of the connection by the gateway. */
  nextDrop(): Promise<void> {
    return new Promise((resolve) => this.droppedWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.stack.urls.webSocket}?token=${this.user.idToken}`);
      socket.on('message', (data) => {
        const live = JSON.parse(data.toString()) as LiveMessage;
        if (live.type !== 'chat.message' || live.conversationId !== this.conversationId) return;
        this.pushes.push({ message: live.message, receivedAt: performance.now() });
        this.messages = mergeMessages(this.messages, [live.message]);
      });
      socket.once('open', () => {
        this.socket = socket;
        resolve();
      });
      socket.once('error', reject);
      socket.once('close', () => {
        if (this.closed) return;
        this.drops += 1;
        this.droppedWaiters.splice(0).forEach((notify) => notify());
        void this.reconnect();
      });
    });
  }

  private async reconnect(attempt = 0): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** Math.min(attempt, 5)));
    if (this.closed) return;
    try {
      await this.connect();
    } catch {
      return this.reconnect(attempt + 1);
    }
    // As a browser tab does, a catch-up that failed (a busy API answering 429 or 503) is tried again: it is all the tab has of what it missed.
    for (let tries = 0; tries < 5; tries++) {
      try {
        return await this.catchUp();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200 * (tries + 1)));
      }
    }
  }

  /** Reads what was sent after the last message shown and merges it. */
  async catchUp(): Promise<void> {
    const missed = await messagesAfter(this.stack, this.user, this.conversationId, this.messages.at(-1)?.position ?? null);
    this.messages = mergeMessages(this.messages, missed);
  }
}
