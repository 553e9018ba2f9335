import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from '../../infra/local/http-util.js';
import { runSmoke } from '../smoke/smoke.js';
import { api, createUser, useLocalStack } from '../support/local-stack.js';

describe('npm run smoke against the local stack', () => {
  const stack = useLocalStack();

  it('signs up two users, posts, pays, applies, accepts, chats, completes, releases and deletes the job', async () => {
    // config.json as the site serves it (Vite in `npm run dev`, the site bucket in AWS).
    const site = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(stack().config));
      }),
      0,
    );
    const steps: string[] = [];
    try {
      const { jobId } = await runSmoke({ configUrl: `${site.url}/config.json`, log: (line) => steps.push(line) });
      expect(steps.map((line) => line.replace(/ \(\d+ ms\)$/, ''))).toEqual([
        'ok  poster signed in',
        'ok  worker signed in',
        'ok  poster payment account connected',
        'ok  worker payment account connected',
        'ok  job posted and paid with the test card',
        'ok  worker applied',
        'ok  poster accepted the worker',
        'ok  worker and poster chatted, the poster live over the WebSocket API',
        'ok  worker marked the job complete',
        'ok  poster released the payment',
        'ok  job deleted',
        'smoke test passed',
      ]);
      const someone = await createUser(stack(), { role: 'worker' });
      expect((await api(stack(), 'GET', `/jobs/${jobId}`, { token: someone.idToken })).status).toBe(404);
    } finally {
      await site.close();
    }
  });

  it('refuses to sign up users against AWS, asking for the operator-provided pair', async () => {
    const site = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...stack().config, mode: 'aws' }));
      }),
      0,
    );
    try {
      await expect(runSmoke({ configUrl: `${site.url}/config.json`, log: () => undefined })).rejects.toThrow(/SMOKE_POSTER=email:password/);
    } finally {
      await site.close();
    }
  });
});
