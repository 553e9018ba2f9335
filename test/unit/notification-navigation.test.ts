import { describe, expect, it } from 'vitest';
import type { AppNotification, NotificationType } from '../../shared/api.js';
import { compareNotifications, newestNotifications, NOTIFICATION_LIMITS } from '../../shared/notifications.js';
import { notificationTarget } from '../../shared/notification-target.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();

function notification(type: NotificationType, createdAt: string, overrides: Partial<AppNotification> = {}): AppNotification {
  return { id: `${type}-${createdAt}`, jobId: 'job-1', type, title: type, message: '', metadata: {}, read: false, createdAt, updatedAt: createdAt, ...overrides };
}

describe('every notification leads to its subject (issue 25)', () => {
  it("opens a worker's question in its conversation", () => {
    expect(notificationTarget(notification('worker_question', at(0), { metadata: { conversation_id: 'c 1' } }), 'poster')).toBe('/real-time-messages/c%201');
    // Messages that came while away open their conversation too.
    expect(notificationTarget(notification('new_message', at(0), { metadata: { conversation_id: 'c 2' } }), 'worker')).toBe('/real-time-messages/c%202');
  });

  it("opens a dispute update in the dispute's thread on the party's dashboard, the admin's disputes tab for the admin", () => {
    const update = notification('dispute_update', at(0), { metadata: { disputeId: 'd-1' } });
    expect(notificationTarget(update, 'worker')).toBe('/worker-dashboard?dispute=d-1');
    expect(notificationTarget(update, 'poster')).toBe('/poster-dashboard?dispute=d-1');
    expect(notificationTarget(update, 'admin')).toBe('/admin-dashboard?tab=disputes');
  });

  it('opens a released payment in the earnings and a nearby job in the job', () => {
    expect(notificationTarget(notification('payment_released', at(0)), 'worker')).toBe('/worker-earnings');
    // The poster's notice of an automatic release opens the job: only workers have earnings (issue 34).
    expect(notificationTarget(notification('payment_released', at(0), { jobId: 'j-3' }), 'poster')).toBe('/jobs/j-3');
    expect(notificationTarget(notification('new_job_nearby', at(0), { jobId: 'j-9' }), 'worker')).toBe('/jobs/j-9');
    expect(notificationTarget(notification('application_accepted', at(0), { jobId: 'j-9' }), 'worker')).toBe('/jobs/j-9');
    expect(notificationTarget(notification('job_moderated', at(0), { jobId: null }), 'poster')).toBe('/notifications');
  });

  it("opens a new applicant in the job's Applications tab, and a failed payout in the earnings", () => {
    expect(notificationTarget(notification('new_applicant', at(0), { jobId: 'j 7' }), 'poster')).toBe('/jobs/j%207?tab=applications');
    expect(notificationTarget(notification('payout_failed', at(0), { jobId: null }), 'worker')).toBe('/worker-earnings');
  });
});

describe("the bell's notifications", () => {
  it('are the 10 newest, whatever their urgency, while the page keeps urgent ones first', () => {
    // Two old urgent ones and eleven newer ordinary ones: the bell shows the ten newest only.
    const list = [
      notification('job_completed', at(0)),
      notification('job_unassigned', at(1)),
      ...Array.from({ length: 11 }, (_, i) => notification('worker_question', at(10 + i))),
    ].sort(compareNotifications);
    expect(list[0]?.type).toBe('job_completed');
    const bell = newestNotifications(list);
    expect(bell).toHaveLength(NOTIFICATION_LIMITS.bell);
    expect(bell.map((n) => n.createdAt)).toEqual(Array.from({ length: 10 }, (_, i) => at(20 - i)));
    expect(bell.some((n) => n.type === 'job_completed' || n.type === 'job_unassigned')).toBe(false);
  });
});
