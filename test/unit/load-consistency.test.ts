import { describe, expect, it } from 'vitest';
import { checkConsistency, type ConsistencyFacts } from '../load/consistency.js';
import { CHAT_GRACE_MS } from '../load/protocol.js';

const OPENED = Date.parse('2026-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(OPENED + seconds * 1000).toISOString();

/** One released job with its payment, transfer and notifications, and one chat both of whose sockets saw everything: consistent. */
function healthyRun(): ConsistencyFacts {
  return {
    jobs: [
      { id: 'paid-job', status: 'paid', posterId: 'poster', stripePaymentIntentId: 'pi_1', pendingApplications: 0 },
      { id: 'open-job', status: 'open', posterId: 'poster', stripePaymentIntentId: 'pi_2', pendingApplications: 2 },
    ],
    payments: [
      { jobId: 'paid-job', paymentIntentId: 'pi_1' },
      { jobId: 'open-job', paymentIntentId: 'pi_2' },
    ],
    intents: { 'paid-job': { status: 'succeeded', jobId: 'paid-job' }, 'open-job': { status: 'succeeded', jobId: 'open-job' } },
    transfers: { 'paid-job': ['tr_1'], 'open-job': [] },
    applications: [
      { jobId: 'paid-job', workerId: 'worker', status: 'accepted' },
      { jobId: 'paid-job', workerId: 'other-worker', status: 'rejected' },
      { jobId: 'open-job', workerId: 'worker', status: 'pending' },
      { jobId: 'open-job', workerId: 'other-worker', status: 'pending' },
    ],
    messages: [
      { conversationId: 'paid-job_worker', id: 'm1', senderId: 'worker', createdAt: at(1) },
      { conversationId: 'paid-job_worker', id: 'm2', senderId: 'poster', createdAt: at(2) },
    ],
    notifications: [
      { userId: 'worker', jobId: 'paid-job', type: 'application_accepted' },
      { userId: 'poster', jobId: 'paid-job', type: 'new_applicant', workerId: 'worker' },
      { userId: 'poster', jobId: 'paid-job', type: 'new_applicant', workerId: 'other-worker' },
      { userId: 'poster', jobId: 'open-job', type: 'new_applicant', workerId: 'worker' },
      { userId: 'poster', jobId: 'open-job', type: 'new_applicant', workerId: 'other-worker' },
      { userId: 'other-worker', jobId: 'paid-job', type: 'application_rejected' },
      { userId: 'poster', jobId: 'paid-job', type: 'job_completed' },
      { userId: 'worker', jobId: 'paid-job', type: 'payment_released' },
      { userId: 'poster', jobId: 'paid-job', type: 'new_message', conversationId: 'paid-job_worker' },
      { userId: 'poster', jobId: 'paid-job', type: 'new_message', conversationId: 'paid-job_worker' },
    ],
    sockets: [
      {
        userId: 'worker',
        conversationId: 'paid-job_worker',
        openedAt: OPENED,
        closedAt: OPENED + 10_000,
        received: { m1: 1, m2: 1 },
        sent: [{ id: 'm1', conversationId: 'paid-job_worker', senderId: 'worker', status: 201, startedAt: OPENED + 1_000 }],
      },
      {
        userId: 'poster',
        conversationId: 'paid-job_worker',
        openedAt: OPENED,
        closedAt: OPENED + 10_000,
        received: { m1: 1, m2: 1 },
        sent: [
          { id: 'm2', conversationId: 'paid-job_worker', senderId: 'poster', status: 201, startedAt: OPENED + 2_000 },
          { id: 'refused', conversationId: 'paid-job_worker', senderId: 'poster', status: 429, startedAt: OPENED + 3_000 },
        ],
      },
    ],
  };
}

const findings = (change: (facts: ConsistencyFacts) => void) => {
  const facts = healthyRun();
  change(facts);
  return checkConsistency(facts).map((finding) => `${finding.kind}: ${finding.what}`);
};

describe("the load run's consistency check", () => {
  it('finds nothing in a run where everything happened once (repeating chat notices and refused sends included)', () => {
    expect(checkConsistency(healthyRun())).toEqual([]);
  });

  it('finds a doubled or lost payment row, a doubled or lost transfer, and a paid job that never opened', () => {
    expect(findings((facts) => facts.payments.push({ jobId: 'paid-job', paymentIntentId: 'pi_1' }))).toEqual(['doubled: job paid-job: 2 payment rows']);
    expect(findings((facts) => facts.payments.splice(0, 1))).toEqual(['lost: job paid-job: its payment succeeded at Stripe but has no payment row']);
    expect(findings((facts) => facts.transfers['paid-job']!.push('tr_2'))).toEqual(['doubled: job paid-job: 2 transfers']);
    expect(findings((facts) => (facts.transfers['paid-job'] = []))).toEqual(['lost: job paid-job: released but no transfer at Stripe']);
    expect(findings((facts) => (facts.transfers['open-job'] = ['tr_3']))).toEqual(['lost: job open-job: a transfer at Stripe but the job is open']);
    expect(findings((facts) => (facts.jobs[1]!.status = 'awaiting_payment'))).toContain('lost: job open-job: its payment succeeded at Stripe but the job never opened');
  });

  it('finds a job past the pending limit and a counter that disagrees with its applications', () => {
    const crowded = findings((facts) => {
      for (const workerId of ['a', 'b', 'c']) {
        facts.applications.push({ jobId: 'open-job', workerId, status: 'pending' });
        facts.notifications.push({ userId: 'poster', jobId: 'open-job', type: 'new_applicant', workerId });
      }
      facts.jobs[1]!.pendingApplications = 5;
    });
    expect(crowded).toEqual(['doubled: job open-job: 5 pending applications (at most 4)']);
    expect(findings((facts) => (facts.jobs[1]!.pendingApplications = 3))).toEqual(['doubled: job open-job: counts 3 pending applications, has 2']);
    expect(findings((facts) => (facts.jobs[1]!.pendingApplications = 1))).toEqual(['lost: job open-job: counts 1 pending applications, has 2']);
  });

  it("finds a message not persisted, persisted twice, pushed twice, or never pushed to the other party's open socket", () => {
    expect(findings((facts) => facts.messages.splice(0, 1))).toEqual(['lost: message m1: answered 201 but not persisted']);
    expect(findings((facts) => facts.messages.push({ ...facts.messages[0]! }))).toEqual(['doubled: message m1: persisted 2 times']);
    expect(findings((facts) => (facts.sockets[1]!.received.m1 = 2))).toEqual(['doubled: message m1: pushed 2 times to one socket of poster']);
    expect(findings((facts) => delete facts.sockets[1]!.received.m1)).toEqual(['lost: message m1: never pushed to the open socket of poster']);
  });

  it('expects no push of a message whose send started before the socket opened (it catches up over HTTP) or within the grace before it closed', () => {
    const early = findings((facts) => {
      facts.sockets[1]!.openedAt = OPENED + 1_500;
      delete facts.sockets[1]!.received.m1;
    });
    expect(early).toEqual([]);
    const late = findings((facts) => {
      facts.sockets[1]!.closedAt = OPENED + 1_000 + CHAT_GRACE_MS - 1;
      delete facts.sockets[1]!.received.m1;
    });
    expect(late).toEqual([]);
  });

  it('finds a notification written twice for one event, and one never written', () => {
    expect(findings((facts) => facts.notifications.push({ userId: 'worker', jobId: 'paid-job', type: 'payment_released' }))).toEqual([
      'doubled: notification payment_released for worker on job paid-job: written 2 times',
    ]);
    expect(findings((facts) => facts.notifications.push({ userId: 'poster', jobId: 'open-job', type: 'new_applicant', workerId: 'worker' }))).toEqual([
      'doubled: notification new_applicant for poster on job open-job about worker: written 2 times',
    ]);
    const without = (type: string) => (facts: ConsistencyFacts) => facts.notifications.splice(facts.notifications.findIndex((n) => n.type === type), 1);
    expect(findings(without('application_accepted'))).toEqual(['lost: notification application_accepted for worker on job paid-job']);
    expect(findings(without('job_completed'))).toEqual(['lost: notification job_completed for poster on job paid-job']);
    expect(findings(without('payment_released'))).toEqual(['lost: notification payment_released for worker on job paid-job']);
    expect(findings(without('new_applicant'))).toEqual(['lost: notification new_applicant for poster on job paid-job about worker']);
  });
});
