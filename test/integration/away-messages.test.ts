import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppNotification } from '../../shared/api.js';
import { AWAY_MESSAGES_PERIOD_MINUTES, notifyAwayRecipient } from '../../functions/chat/away-messages.js';
import { LOCAL_MAIL_FROM } from '../../infra/local/stack.js';
import { ChatClient, sendMessage, startConversation } from '../support/chat.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, useLocalStack, type TestUser } from '../support/local-stack.js';
import { settle } from '../support/payments.js';

const PERIOD_MS = AWAY_MESSAGES_PERIOD_MINUTES * 60_000;

describe('chat messages to a party who is away (issue 25)', { timeout: 180_000 }, () => {
  const stack = useLocalStack();
  const awayNotices = async (user: TestUser) =>
    (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items.filter((notification) => notification.type === 'new_message');
  const emailsTo = (user: TestUser) => stack().mailbox.list(user.email).filter((mail) => mail.from === LOCAL_MAIL_FROM);

  it('tells a recipient with no open connection once per conversation and quiet period, in the app and by email, never one per message', async () => {
    const [poster, away, online] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster);
    // The poster messages workers who applied.
    for (const worker of [away, online]) expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    const [withAway, withOnline] = await Promise.all([
      startConversation(stack(), poster, { jobId: job.id, workerId: away.userId }),
      startConversation(stack(), poster, { jobId: job.id, workerId: online.userId }),
    ]);
    const onlineClient = new ChatClient(stack(), online, withOnline.id);
    await onlineClient.open();

    for (const content of ['Are you free on Saturday?', 'Morning works best.', 'Bring a ladder if you can.']) {
      expect((await sendMessage(stack(), poster, withAway.id, content)).status).toBe(201);
      expect((await sendMessage(stack(), poster, withOnline.id, content)).status).toBe(201);
    }
    await settle(stack());
    onlineClient.close();

    const [notice, ...more] = await awayNotices(away);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ jobId: job.id, metadata: { conversation_id: withAway.id } });
    const [email, ...moreEmails] = emailsTo(away);
    expect(moreEmails).toEqual([]);
    expect(email!.subject).toBe(notice!.title);
    expect(email!.text).toContain(`/real-time-messages/${encodeURIComponent(withAway.id)}`);
    // Connected, the other worker saw the messages live: nothing to tell.
    expect(await awayNotices(online)).toEqual([]);
    expect(emailsTo(online)).toEqual([]);
  });

  it('property: whatever the timing and concurrency of messages, at most one notice per conversation in any quiet period, and one as soon as a period has passed', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Bursts of messages: minutes since the previous burst, and how many arrive at once.
        fc.array(fc.record({ gapMinutes: fc.integer({ min: 0, max: 2 * AWAY_MESSAGES_PERIOD_MINUTES }), together: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 6 }),
        async (bursts) => {
          const conversation = { jobId: randomUUID(), workerId: randomUUID(), conversationId: randomUUID(), jobTitle: 'Fix a fence', senderName: 'Pat', recipientId: randomUUID() };
          let clock = Date.UTC(2026, 10, 26, 12);
          const told: number[] = [];
          for (const { gapMinutes, together } of bursts) {
            clock += gapMinutes * 60_000;
            const now = new Date(clock);
            const notices = await Promise.all(Array.from({ length: together }, () => notifyAwayRecipient(conversation, now)));
            const written = notices.filter(Boolean).length;
            expect(written).toBeLessThanOrEqual(1);
            const periodOver = told.length === 0 || clock >= told.at(-1)! + PERIOD_MS;
            expect(written).toBe(periodOver ? 1 : 0);
            if (written) told.push(clock);
          }
          for (let i = 1; i < told.length; i++) expect(told[i]! - told[i - 1]!).toBeGreaterThanOrEqual(PERIOD_MS);
        },
      ),
      { numRuns: 15 },
    );
  });
});
