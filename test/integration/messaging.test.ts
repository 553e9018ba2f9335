import { randomUUID } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppNotification, ChatMessage, ConversationDetail, ConversationView, JobSummary, LiveMessage } from '../../shared/api.js';
import { conversationId as conversationIdOf } from '../../shared/chat.js';
import { RATE_LIMITS } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { keys } from '../../functions/table.js';
import { ChatClient, messagesAfter, sendMessage, startConversation, unreadTotal } from '../support/chat.js';
import { createReadyUser, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, settle } from '../support/payments.js';
import { awaitFreshWindow } from '../support/rate-limits.js';

describe('live messaging', () => {
  // Connections are cut after 3 s, as API Gateway cuts them after 2 hours: the chat must live through it.
  const stack = useLocalStack({ webSocketLimits: { maxConnectionAgeMs: 3000 } });

  /** A poster with an open job and a worker in a conversation about it. */
  async function conversationPair() {
    const [poster, worker] = await Promise.all([createPoster(stack()), createUser(stack(), { role: 'worker', name: 'Wendy Worker' })]);
    const job = await postOpenJob(stack(), poster, { title: 'Fix a fence' });
    const conversation = await startConversation(stack(), worker, { jobId: job.id });
    return { poster, worker, job, conversation };
  }

  const storedMessages = async (conversation: ConversationView) => {
    const [jobId, workerId] = conversation.id.split('_');
    const { Items = [] } = await tableClient(stack()).send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
        ExpressionAttributeValues: { ':pk': `CONV#${jobId}#${workerId}`, ':msg': 'MSG#' },
      }),
    );
    return Items;
  };

  const notifications = async (user: TestUser) =>
    (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items;

  it('starts one conversation per job and worker, from either side, and lists it for both', async () => {
    const { poster, worker, job, conversation } = await conversationPair();
    expect(conversation).toMatchObject({ jobId: job.id, jobTitle: 'Fix a fence', jobStatus: 'open', posterId: poster.userId, workerId: worker.userId, isBlocked: false });
    expect(conversation.otherParty?.id).toBe(poster.userId);

    const again = await api<ConversationView>(stack(), 'POST', '/conversations', { token: worker.idToken, body: { jobId: job.id } });
    const fromPoster = await api<ConversationView>(stack(), 'POST', '/conversations', { token: poster.idToken, body: { jobId: job.id, workerId: worker.userId } });
    expect([again.status, again.body.id]).toEqual([200, conversation.id]);
    expect([fromPoster.status, fromPoster.body.id, fromPoster.body.otherParty?.name]).toEqual([200, conversation.id, 'Wendy Worker']);

    const listed = await api<{ items: ConversationView[] }>(stack(), 'GET', '/conversations', { token: poster.idToken });
    expect(listed.body.items.map((item) => item.id)).toEqual([conversation.id]);

    const badCursor = await api<{ error: string }>(stack(), 'GET', `/conversations/${conversation.id}/messages?after=${'x'.repeat(2000)}`, { token: worker.idToken });
    expect([badCursor.status, badCursor.body.error]).toEqual([400, MSG.messaging.invalidPosition]);

    const self = await api<{ error: string }>(stack(), 'POST', '/conversations', { token: poster.idToken, body: { jobId: job.id, workerId: poster.userId } });
    expect([self.status, self.body.error]).toEqual([403, MSG.applications.cannotMessageSelf]);
  });

  it('answers 404 to a third user and the admin, and 401 to anonymous callers, on every conversation route', async () => {
    const { worker, job, conversation } = await conversationPair();
    const [stranger, admin] = await Promise.all([createUser(stack(), { role: 'worker' }), createUser(stack(), { role: 'admin' })]);
    await sendMessage(stack(), worker, conversation.id, 'Is the fence wooden?');
    const id = conversation.id;
    const conversationRoutes: Array<[string, string, unknown?]> = [
      ['GET', `/conversations/${id}`],
      ['GET', `/conversations/${id}/messages`],
      ['POST', `/conversations/${id}/messages`, { id: randomUUID(), content: 'hello' }],
      ['POST', `/conversations/${id}/read`],
      ['PUT', `/conversations/${id}/block`],
      ['DELETE', `/conversations/${id}/block`],
    ];
    for (const outsider of [stranger, admin]) {
      for (const [method, path, body] of conversationRoutes) {
        const response = await api<{ error: string }>(stack(), method, path, { token: outsider.idToken, body });
        expect([method, path, response.status, response.body.error]).toEqual([method, path, 404, MSG.messaging.conversationNotFound]);
      }
      const listed = await api<{ items: ConversationView[] }>(stack(), 'GET', '/conversations', { token: outsider.idToken });
      expect(listed.body.items).toEqual([]);
    }
    // Nobody can start a conversation in another worker's name.
    const impersonated = await api(stack(), 'POST', '/conversations', { token: stranger.idToken, body: { jobId: job.id, workerId: worker.userId } });
    expect(impersonated.status).toBe(403);
    const allRoutes: Array<[string, string, unknown?]> = [
      ...conversationRoutes,
      ['GET', '/conversations'],
      ['POST', '/conversations', { jobId: job.id }],
      ['GET', '/me/unread-messages'],
    ];
    for (const [method, path, body] of allRoutes) expect([method, path, (await api(stack(), method, path, { body })).status]).toEqual([method, path, 401]);
    expect(await storedMessages(conversation)).toHaveLength(1);
  });

  it('counts unread messages per conversation and in the header total, and clears them when opened', async () => {
    const { poster, worker, conversation } = await conversationPair();
    const first = await sendMessage(stack(), worker, conversation.id, '  <b>Is the fence wooden?</b>  ');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ questionSent: true, message: { content: 'Is the fence wooden?', senderId: worker.userId, read: false } });
    await sendMessage(stack(), worker, conversation.id, 'And how long is it?');
    expect(await unreadTotal(stack(), poster)).toBe(2);
    expect(await unreadTotal(stack(), worker)).toBe(0);

    // The worker's first message on an open job tells the poster, once.
    await settle(stack());
    const questions = (await notifications(poster)).filter((notification) => notification.type === 'worker_question');
    expect(questions).toHaveLength(1);
    expect(questions[0]!.metadata).toMatchObject({ conversation_id: conversation.id, worker_id: worker.userId, worker_name: 'Wendy Worker' });

    const listed = await api<{ items: ConversationView[] }>(stack(), 'GET', '/conversations', { token: poster.idToken });
    expect(listed.body.items[0]).toMatchObject({ id: conversation.id, unreadCount: 2, lastMessage: { content: 'And how long is it?' } });

    expect((await api(stack(), 'POST', `/conversations/${conversation.id}/read`, { token: poster.idToken })).status).toBe(204);
    expect(await unreadTotal(stack(), poster)).toBe(0);
    const seenByWorker = await api<ConversationDetail>(stack(), 'GET', `/conversations/${conversation.id}`, { token: worker.idToken });
    expect(seenByWorker.body.messages.map((message) => [message.content, message.read])).toEqual([
      ['Is the fence wooden?', true],
      ['And how long is it?', true],
    ]);
    // Reading again takes nothing more off the total.
    await api(stack(), 'POST', `/conversations/${conversation.id}/read`, { token: poster.idToken });
    await sendMessage(stack(), poster, conversation.id, 'Yes, cedar. About 20 feet.');
    expect([await unreadTotal(stack(), poster), await unreadTotal(stack(), worker)]).toEqual([0, 1]);
  });

  it('writes a message once however often its id is sent, even 20 times at once', async () => {
    const { poster, worker, conversation } = await conversationPair();
    const id = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => sendMessage(stack(), worker, conversation.id, 'Only once, please', id)));
    expect(responses.map((response) => response.status).sort()).toEqual([...Array<number>(19).fill(200), 201]);
    expect(new Set(responses.map((response) => response.body.message.id))).toEqual(new Set([id]));
    expect(await storedMessages(conversation)).toHaveLength(1);
    expect(await unreadTotal(stack(), poster)).toBe(1);
    await settle(stack());
    expect((await notifications(poster)).filter((notification) => notification.type === 'worker_question')).toHaveLength(1);
  });

  it('refuses empty and too long messages, and more than 10 a minute, without writing them', async () => {
    const { worker, conversation } = await conversationPair();
    const empty = await sendMessage(stack(), worker, conversation.id, '   ');
    const tooLong = await sendMessage(stack(), worker, conversation.id, 'x'.repeat(2001));
    expect([empty.status, empty.body.error, tooLong.status, tooLong.body.error]).toEqual([400, MSG.messaging.messageEmpty, 400, MSG.messaging.messageTooLong]);

    // The eleven sends in one window: straddling two would let the eleventh through.
    await awaitFreshWindow('messages', 25);
    const sent: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const response = await sendMessage(stack(), worker, conversation.id, `message ${i}`);
      expect(response.status).toBe(201);
      sent.push(response.body.message.id);
    }
    const eleventh = await sendMessage(stack(), worker, conversation.id, 'one too many');
    expect([eleventh.status, eleventh.body.error]).toEqual([429, MSG.messaging.tooManyMessages]);
    // A resend of a message already written is not a new message: it is answered, not limited.
    const resend = await sendMessage(stack(), worker, conversation.id, 'message 10', sent[9]);
    expect([resend.status, resend.body.message.id]).toEqual([200, sent[9]]);
    expect(await storedMessages(conversation)).toHaveLength(10);
  }, 60_000);

  it("refuses a suspended sender's message, before telling whether the conversation exists, and counts nothing against their limit", async () => {
    const { worker, conversation } = await conversationPair();
    // The admin's suspension (test/integration/admin-users.test.ts) sets this on the profile; the worker's token stays valid.
    const setStatus = (accountStatus: string) =>
      tableClient(stack()).send(
        new UpdateCommand({ TableName: stack().tableName, Key: keys.profile(worker.userId), UpdateExpression: 'SET accountStatus = :status', ExpressionAttributeValues: { ':status': accountStatus } }),
      );
    await setStatus('suspended');
    const refused = await sendMessage(stack(), worker, conversation.id, 'Still here?');
    const unknown = await sendMessage(stack(), worker, conversationIdOf(randomUUID(), worker.userId), 'Anyone?');
    expect([refused.status, refused.body.error, unknown.status, unknown.body.error]).toEqual([403, MSG.auth.accountSuspended, 403, MSG.auth.accountSuspended]);
    expect(await storedMessages(conversation)).toEqual([]);
    const { Items: counters = [] } = await tableClient(stack()).send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.rateCounter(RATE_LIMITS.messages.name, worker.userId, 0).pk } }),
    );
    expect(counters).toEqual([]);

    await setStatus('active');
    expect((await sendMessage(stack(), worker, conversation.id, 'Back again.')).status).toBe(201);
  });

  it('lets the poster block and unblock the worker; a blocked worker cannot send, the poster still can', async () => {
    const { poster, worker, conversation } = await conversationPair();
    const workerBlocks = await api(stack(), 'PUT', `/conversations/${conversation.id}/block`, { token: worker.idToken });
    expect(workerBlocks.status).toBe(403);

    const blocked = await api<ConversationView>(stack(), 'PUT', `/conversations/${conversation.id}/block`, { token: poster.idToken });
    expect(blocked.body.isBlocked).toBe(true);
    const refused = await sendMessage(stack(), worker, conversation.id, 'Please?');
    expect([refused.status, refused.body.error]).toEqual([403, MSG.applications.chatBlocked]);
    expect((await sendMessage(stack(), poster, conversation.id, 'I found someone else.')).status).toBe(201);
    const workerView = await api<{ items: ConversationView[] }>(stack(), 'GET', '/conversations', { token: worker.idToken });
    expect(workerView.body.items[0]!.isBlocked).toBe(true);

    const unblocked = await api<ConversationView>(stack(), 'DELETE', `/conversations/${conversation.id}/block`, { token: poster.idToken });
    expect(unblocked.body.isBlocked).toBe(false);
    expect((await sendMessage(stack(), worker, conversation.id, 'Thanks!')).status).toBe(201);
    expect(await storedMessages(conversation)).toHaveLength(2);
  });

  it('closes the conversation once the job is paid: history readable, no new messages or conversations', async () => {
    const { poster, worker, job, conversation } = await conversationPair();
    await sendMessage(stack(), worker, conversation.id, 'Done!');
    const other = await createUser(stack(), { role: 'worker' });
    await setJobStatus(stack(), job, 'paid', worker.userId);

    for (const sender of [worker, poster]) {
      const refused = await sendMessage(stack(), sender, conversation.id, 'One more thing');
      expect([refused.status, refused.body.error]).toEqual([403, MSG.applications.messagingClosedForCompleted]);
    }
    const history = await api<ConversationDetail>(stack(), 'GET', `/conversations/${conversation.id}`, { token: poster.idToken });
    expect(history.body.conversation).toMatchObject({ jobStatus: 'paid', isClosed: true, closedReason: 'paid' });
    expect(history.body.messages.map((message) => message.content)).toEqual(['Done!']);
    const started = await api<{ error: string }>(stack(), 'POST', '/conversations', { token: other.idToken, body: { jobId: job.id } });
    expect([started.status, started.body.error]).toEqual([403, MSG.applications.messagingClosedForCompleted]);
  });

  it('lets workers start conversations only on open jobs, then only the assigned worker; the poster only with applicants', async () => {
    const [poster, assigned, applicant, stranger] = await Promise.all([
      createPoster(stack()),
      createReadyUser(stack(), 'worker'),
      createReadyUser(stack(), 'worker'),
      createUser(stack(), { role: 'worker' }),
    ]);
    const job = await postOpenJob(stack(), poster, { title: 'Move a piano' });
    const start = (caller: TestUser, workerId?: string) =>
      api<{ error?: string; id?: string }>(stack(), 'POST', '/conversations', { token: caller.idToken, body: { jobId: job.id, ...(workerId ? { workerId } : {}) } });
    const outcome = async (caller: TestUser, workerId?: string) => {
      const response = await start(caller, workerId);
      return [response.status, response.body.error ?? 'started'];
    };
    for (const worker of [assigned, applicant]) {
      expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: { message: 'Strong arms' } })).status).toBe(201);
    }

    // Open: a worker may ask; the poster may write to an applicant, not to any worker they name.
    expect(await outcome(poster, stranger.userId)).toEqual([403, MSG.messaging.notAnApplicant]);
    expect(await outcome(poster, applicant.userId)).toEqual([201, 'started']);
    const applicantConversation = conversationIdOf(job.id, applicant.userId);

    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications/${assigned.userId}/accept`, { token: poster.idToken })).status).toBe(200);
    // Assigned: strangers are refused with the spec's text; the poster may write to the assigned worker only.
    expect(await outcome(stranger)).toEqual([409, MSG.applications.notAvailable]);
    expect(await outcome(poster, stranger.userId)).toEqual([409, MSG.messaging.onlyAssignedWorker]);
    expect(await outcome(assigned)).toEqual([201, 'started']);
    const assignedConversation = conversationIdOf(job.id, assigned.userId);
    const sendOutcome = async (sender: TestUser, id: string) => {
      const response = await sendMessage(stack(), sender, id, 'About the piano');
      return [response.status, response.body.error ?? 'sent'];
    };
    const closedReason = async (id: string) =>
      (await api<ConversationDetail>(stack(), 'GET', `/conversations/${id}`, { token: poster.idToken })).body.conversation.closedReason;
    // The applicant's conversation from when the job was open stays readable, but only the
    // assigned worker's takes messages now (issue 23), from either side.
    expect(await outcome(applicant)).toEqual([200, 'started']);
    const history = await api<ConversationDetail>(stack(), 'GET', `/conversations/${applicantConversation}`, { token: applicant.idToken });
    expect(history.body.conversation).toMatchObject({ isClosed: true, closedReason: 'assignedElsewhere' });
    expect(await sendOutcome(applicant, applicantConversation)).toEqual([409, MSG.applications.notAvailable]);
    expect(await sendOutcome(poster, applicantConversation)).toEqual([409, MSG.messaging.onlyAssignedWorker]);
    expect(await storedMessages(history.body.conversation)).toEqual([]);
    expect(await sendOutcome(assigned, assignedConversation)).toEqual([201, 'sent']);
    expect(await sendOutcome(poster, assignedConversation)).toEqual([201, 'sent']);
    expect(await closedReason(assignedConversation)).toBeNull();

    // Unassigned, the job is open again: so is every conversation about it.
    expect((await api(stack(), 'POST', `/jobs/${job.id}/unassign`, { token: poster.idToken })).status).toBe(200);
    expect(await closedReason(applicantConversation)).toBeNull();
    expect(await sendOutcome(applicant, applicantConversation)).toEqual([201, 'sent']);
    expect(await sendOutcome(poster, applicantConversation)).toEqual([201, 'sent']);

    const summary = await api<JobSummary>(stack(), 'GET', `/jobs/${job.id}`, { token: poster.idToken });
    await setJobStatus(stack(), summary.body, 'completed', assigned.userId);
    expect(await outcome(stranger)).toEqual([409, MSG.applications.notAvailable]);
    expect(await sendOutcome(applicant, applicantConversation)).toEqual([409, MSG.applications.notAvailable]);
    expect(await sendOutcome(assigned, assignedConversation)).toEqual([201, 'sent']);
    await setJobStatus(stack(), summary.body, 'cancelled');
    expect(await outcome(stranger)).toEqual([409, MSG.jobs.noLongerAvailable]);
    expect(await closedReason(assignedConversation)).toBe('cancelled');
    expect(await sendOutcome(assigned, assignedConversation)).toEqual([409, MSG.jobs.noLongerAvailable]);

    const listed = await api<{ items: ConversationView[] }>(stack(), 'GET', '/conversations', { token: poster.idToken });
    expect(listed.body.items.map((item) => item.workerId).sort()).toEqual([assigned.userId, applicant.userId].sort());
  });

  it("pushes each message to every connection of both parties, and a job's deletion takes its unread messages off the total", async () => {
    const { poster, worker, job, conversation } = await conversationPair();
    const open = (user: TestUser) =>
      new Promise<LiveMessage[]>((resolve, reject) => {
        const received: LiveMessage[] = [];
        const socket = new WebSocket(`${stack().urls.webSocket}?token=${user.idToken}`);
        socket.on('message', (data) => received.push(JSON.parse(data.toString()) as LiveMessage));
        socket.once('open', () => resolve(received));
        socket.once('error', reject);
      });
    const [posterTab, workerTab, workerOtherTab] = await Promise.all([open(poster), open(worker), open(worker)]);
    const { body } = await sendMessage(stack(), worker, conversation.id, 'Hello from my phone');
    const expected = { type: 'chat.message', conversationId: conversation.id, message: body.message };
    for (const tab of [posterTab, workerTab, workerOtherTab]) {
      await expect.poll(() => tab.filter((live) => live.type === 'chat.message')).toEqual([expected]);
    }

    expect(await unreadTotal(stack(), poster)).toBe(1);
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: poster.idToken })).status).toBe(204);
    expect(await unreadTotal(stack(), poster)).toBe(0);
  });

  it('a socket dropped mid-conversation reconnects and catches up: every message once, in order', async () => {
    const { poster, worker, conversation } = await conversationPair();
    const client = new ChatClient(stack(), worker, conversation.id);
    await client.open();
    const dropped = client.nextDrop();
    const sent: ChatMessage[] = [];
    for (let i = 0; i < 20; i++) {
      const sender = i % 2 === 0 ? poster : worker;
      const response = await sendMessage(stack(), sender, conversation.id, `message ${i}`);
      expect(response.status).toBe(201);
      sent.push(response.body.message);
      // Half-way the gateway cuts the connection; the rest is sent while it is down or back.
      if (i === 9) await dropped;
    }
    await expect.poll(() => client.messages.length, { timeout: 10_000 }).toBe(sent.length);
    client.close();

    expect(client.drops).toBeGreaterThanOrEqual(1);
    const everything = await messagesAfter(stack(), worker, conversation.id, null);
    expect(everything.map((message) => message.content)).toEqual(sent.map((message) => message.content));
    expect(client.messages.map((message) => message.id)).toEqual(sent.map((message) => message.id));
    // No push arrived twice on the live connections.
    const pushedIds = client.pushes.map((push) => push.message.id);
    expect(new Set(pushedIds).size).toBe(pushedIds.length);
  });
});
