import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/local-stack.js';
import { LiveSocket } from '../support/live-socket.js';

/** Short, so that a socket left alone is closed within the test (API Gateway: 10 minutes). */
const IDLE_TIMEOUT_MS = 1500;

describe('live socket heartbeat', () => {
  const stack = useLocalStack({ webSocketLimits: { idleTimeoutMs: IDLE_TIMEOUT_MS } });

  it('keeps a pinging socket open past the idle timeout, answering each ping', async () => {
    const [pinging, idle] = await Promise.all([LiveSocket.open(stack().urls.webSocket), LiveSocket.open(stack().urls.webSocket)]);
    const idleClosed = new Promise<number>((resolve) => idle.socket.once('close', (code) => resolve(code)));
    const pings = setInterval(() => pinging.send({ action: 'ping' }), IDLE_TIMEOUT_MS / 3);
    expect(await idleClosed).toBe(1001);
    // Another full timeout: the pinging socket is still open.
    await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS));
    clearInterval(pings);
    expect(pinging.socket.readyState).toBe(pinging.socket.OPEN);
    expect(pinging.frames.filter((frame) => frame.type === 'pong').length).toBeGreaterThanOrEqual(3);
    await pinging.close();
  });
});
