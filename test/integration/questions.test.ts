import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminFlaggedJob } from '../../shared/admin.js';
import type { AppNotification, JobQuestion, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { QUESTION_LIMITS, QUESTION_TEXTS } from '../../shared/questions.js';
import { keys } from '../../functions/table.js';
import { createReadyUser, postOpenJob, setJobStatus } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';

/**
 * Public questions (issue 45): a worker asks on an open job, the poster answers once, every
 * signed-in reader sees both; what job text would be flagged for is refused before it is
 * public; a reader reports a question and the admin removes it, not the job; the job's
 * deletion takes its questions.
 */
describe('public questions on a job: asked, answered, reported and removed', { timeout: 120_000 }, () => {
  const stack = useLocalStack();
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });

  const call = <T>(user: TestUser, method: string, path: string, body?: unknown) => api<T & { error?: string }>(stack(), method, path, { token: user.idToken, body });
  const ask = (user: TestUser, job: { id: string }, text: string) => call<JobQuestion>(user, 'POST', `/jobs/${job.id}/questions`, { text });
  const answer = (user: TestUser, job: { id: string }, question: { id: string }, text: string) => call<JobQuestion>(user, 'POST', `/jobs/${job.id}/questions/${question.id}/answer`, { answer: text });
  const questions = async (user: TestUser, job: { id: string }) => (await call<{ items: JobQuestion[] }>(user, 'GET', `/jobs/${job.id}/questions`)).body.items;
  const notices = async (user: TestUser, job: { id: string }) => (await call<{ items: AppNotification[] }>(user, 'GET', '/me/notifications')).body.items.filter((note) => note.jobId === job.id);

  it('lets a worker ask and the poster answer once, tells each, and shows both to every signed-in reader', async () => {
    const [poster, worker, reader] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title: 'Hang a heavy mirror' });

    const asked = await ask(worker, job, 'Is the wall brick or drywall?');
    expect(asked).toMatchObject({ status: 201, body: { text: 'Is the wall brick or drywall?', answer: null, askerId: worker.userId } });
    expect((await notices(poster, job)).map((note) => [note.type, note.message])).toContainEqual(['question_asked', QUESTION_TEXTS.askedMessage(asked.body.askerName ?? '', job.title)]);

    // The poster alone answers, once; the asker is told.
    expect((await answer(reader, job, asked.body, 'Brick.')).status).toBe(404);
    const answered = (await answer(poster, job, asked.body, 'Brick, and the anchors are here.')).body;
    // The page's view of the question, not the stored item (no table keys).
    expect(answered).toEqual({ ...asked.body, answer: 'Brick, and the anchors are here.', answeredAt: expect.any(String) });
    expect(await answer(poster, job, asked.body, 'Changed my mind')).toEqual({ status: 409, body: { error: QUESTION_TEXTS.alreadyAnswered } });
    expect((await notices(worker, job)).map((note) => note.type)).toContain('question_answered');
    expect(await questions(reader, job)).toEqual([expect.objectContaining({ text: 'Is the wall brick or drywall?', answer: 'Brick, and the anchors are here.', askerName: asked.body.askerName })]);

    // Only workers ask; nothing private goes public.
    expect(await ask(poster, job, 'Can I ask my own?')).toEqual({ status: 403, body: { error: QUESTION_TEXTS.onlyWorkers } });
    expect(await ask(worker, job, 'Text me on 512-555-0134 and I will do it')).toEqual({ status: 400, body: { error: QUESTION_TEXTS.notPublic } });
    expect(await ask(worker, job, 'Can you pay by Venmo?')).toEqual({ status: 400, body: { error: QUESTION_TEXTS.notPublic } });
    const second = await ask(reader, job, 'Which floor is it on?');
    expect(await answer(poster, job, second.body, 'Email me at paula@example.com')).toEqual({ status: 400, body: { error: QUESTION_TEXTS.notPublic } });
    expect((await ask(worker, job, 'x'.repeat(QUESTION_LIMITS.question + 1))).status).toBe(400);
    expect((await questions(worker, job)).map((question) => question.text)).toEqual(['Which floor is it on?', 'Is the wall brick or drywall?']);

    // The asker's export carries their questions with the answers.
    const exported = (await call<{ questionsAsked: Array<{ text: string; answer?: string }> }>(worker, 'GET', '/me/export')).body.questionsAsked;
    expect(exported).toEqual([expect.objectContaining({ text: 'Is the wall brick or drywall?', answer: 'Brick, and the anchors are here.' })]);
    // The poster's export carries their answer, not the asker's words.
    const answers = (await call<{ answersWritten: Array<Record<string, unknown>> }>(poster, 'GET', '/me/export')).body.answersWritten;
    expect(answers).toEqual([expect.objectContaining({ answer: 'Brick, and the anchors are here.', jobId: job.id })]);
    expect(answers[0]).not.toHaveProperty('text');

    // Questions close with the job.
    await setJobStatus(stack(), job, 'assigned', worker.userId);
    expect(await ask(reader, job, 'Still open?')).toEqual({ status: 409, body: { error: QUESTION_TEXTS.closed } });
  });

  it("removes a deleted account's questions from the jobs they were asked on", async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title: 'Fix a dripping tap' });
    await ask(worker, job, 'Which tap is it?');
    expect((await call(worker, 'POST', '/me/deletion', { password: worker.password })).status).toBeLessThan(300);
    await expect.poll(async () => (await questions(poster, job)).length, { timeout: 20_000 }).toBe(0);
    expect((await ask(poster, job, 'x')).status).toBe(403);
  });

  it('takes a report on a question for the admin, who removes the question and keeps the job; a deleted job takes its questions', async () => {
    const [poster, worker, reader] = await Promise.all([createReadyUser(stack(), 'poster'), createReadyUser(stack(), 'worker'), createReadyUser(stack(), 'worker')]);
    const job = await postOpenJob(stack(), poster, { title: 'Paint a bedroom' });
    const question = (await ask(worker, job, 'Do you have a cheaper way we could sort this out?')).body;

    expect(await call(worker, 'POST', `/jobs/${job.id}/flags`, { flagType: 'inappropriate', reason: 'mine', questionId: question.id })).toEqual({ status: 400, body: { error: QUESTION_TEXTS.cannotReportOwn } });
    expect((await call(reader, 'POST', `/jobs/${job.id}/flags`, { flagType: 'off_platform_payment', reason: 'Asks to deal outside the app', questionId: question.id })).status).toBe(201);
    expect(await call(reader, 'POST', `/jobs/${job.id}/flags`, { flagType: 'off_platform_payment', reason: 'Again', questionId: question.id })).toEqual({ status: 409, body: { error: MSG.flags.alreadyReported } });
    // The poster may report a question on their own job (it is not theirs).
    expect((await call(poster, 'POST', `/jobs/${job.id}/flags`, { flagType: 'spam', reason: 'Not about the job', questionId: question.id })).status).toBe(201);

    const flags = (await call<Page<AdminFlaggedJob>>(admin, 'GET', '/admin/flags?status=pending')).body.items.filter((flag) => flag.jobId === job.id);
    expect(flags).toHaveLength(2);
    expect(flags.every((flag) => flag.questionId === question.id && flag.questionText === question.text)).toBe(true);

    expect((await call(admin, 'POST', `/admin/flags/${job.id}/review`, { decision: 'removed', notes: 'Off-platform deal', questionId: question.id })).status).toBe(200);
    expect(await questions(reader, job)).toEqual([]);
    expect((await call(reader, 'GET', `/jobs/${job.id}`)).body).toMatchObject({ status: 'open' });
    expect(await call(admin, 'POST', `/admin/flags/${job.id}/review`, { decision: 'removed', notes: 'Again', questionId: question.id })).toEqual({ status: 409, body: { error: MSG.admin.flagAlreadyReviewed } });

    await ask(worker, job, 'Is paint provided?');
    expect((await call(poster, 'DELETE', `/jobs/${job.id}`)).status).toBeLessThan(300);
    const left = await tableClient(stack()).send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': keys.jobPartition(job.id), ':prefix': keys.jobQuestionPrefix() } }),
    );
    expect(left.Items ?? []).toEqual([]);
  });
});
