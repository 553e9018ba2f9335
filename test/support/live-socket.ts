import WebSocket from 'ws';
import type { AppNotification, LiveMessage } from '../../shared/api.js';
import type { LiveReply, LiveRequest } from '../../shared/live.js';

/** Every frame a socket received, pushes and replies alike. */
export type LiveFrame = LiveMessage | LiveReply;
type JobPush = Extract<LiveMessage, { type: 'job.posted' | 'job.updated' | 'job.removed' }>;

/**
 * A live socket as the web app uses it, in Node: it records every frame, subscribes (and
 * waits for the server's reply, which follows any catch-up) and pings.
 */
export class LiveSocket {
  readonly frames: LiveFrame[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as LiveFrame));
  }

  /** Opens a socket as a user (their ID token) or a visitor. */
  static open(webSocketUrl: string, token = 'anonymous'): Promise<LiveSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${webSocketUrl}?token=${encodeURIComponent(token)}`);
      const live = new LiveSocket(socket);
      socket.once('open', () => resolve(live));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(request: LiveRequest): void {
    this.socket.send(JSON.stringify(request));
  }

  /** Subscribes and resolves with the server's reply. */
  async subscribe(topics: string[], since?: string): Promise<Extract<LiveReply, { type: 'subscribed' }>> {
    const before = this.replies().length;
    this.send({ action: 'subscribe', topics, ...(since ? { since } : {}) });
    for (let waited = 0; this.replies().length === before; waited += 20) {
      if (waited > 10_000) throw new Error(`no reply to subscribe; received ${JSON.stringify(this.frames)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.replies().at(-1)!;
  }

  /** The job pushes received, in order. */
  jobPushes(): JobPush[] {
    return this.frames.filter((frame): frame is JobPush => frame.type === 'job.posted' || frame.type === 'job.updated' || frame.type === 'job.removed');
  }

  /** The notifications pushed, in order. */
  notifications(): AppNotification[] {
    return this.frames.flatMap((frame) => (frame.type === 'notification' ? [frame.notification] : []));
  }

  private replies() {
    return this.frames.filter((frame): frame is Extract<LiveReply, { type: 'subscribed' }> => frame.type === 'subscribed');
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
