import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminActionView, AdminFlaggedJob, CategoryStats, MarketAnalytics, MarketStats } from '../../shared/admin.js';
import { completionRate } from '../../shared/admin.js';
import type { AdminPaymentRecord, AppNotification, JobSummary, Page, PaymentRecord } from '../../shared/api.js';
import { JOB_STATUSES, type JobStatus } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { quotePrice } from '../../shared/money.js';
import { recentPeriods } from '../../shared/series.js';
import { payBandCeiling, payBandOf, type CategoryEarnings } from '../../shared/earnings-ranges.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { adminActionItem } from '../../functions/lib/admin-actions.js';
import { jobEvent } from '../../functions/jobs/job-events.js';
import { transactWrite } from '../../functions/lib/transactions.js';
import { jobIndexKeys, newJob, type JobItem } from '../../functions/jobs/jobs.js';
import { HTTP_ROUTE_GROUPS, JOB_EVENT, type JobChange } from '../../functions/routes.js';
import { keys } from '../../functions/table.js';
import { backfillListShards } from '../../infra/backfill-list-shards.js';
import { api, createUser, queryIndex, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, postPaidJob, settle, stripeOf } from '../support/payments.js';

const form = {
  title: 'Clear the gutters',
  description: 'Two-storey house, ladder provided.',
  address: { street: '3 Elm St', city: 'Austin', state: 'TX' },
  payment: 5000,
  category: 'Cleaning',
  date: new Date().toISOString().slice(0, 10),
  duration: '2 hours',
};

const ADMIN_ROUTES = Object.values(HTTP_ROUTE_GROUPS).flatMap((group) =>
  Object.entries(group.routes as Record<string, string>)
    .filter(([, access]) => access === 'admin')
    .map(([routeKey]) => routeKey),
);

/** A path for a route template with well-shaped ids, so only the access rule can refuse it. */
const samplePath = (template: string) =>
  template.replace('/admin/payments/{id}', '/admin/payments/pi_123').replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

describe('the admin console', () => {
  const stack = useLocalStack();
  const posterName = 'Patricia Poster';
  let admin: TestUser;
  /** Payment creation is rate limited per poster (3 a minute): each test posts as its own. */
  let poster: TestUser;

  const paymentOf = async (jobId: string) =>
    (await queryIndex(stack(), 'GSI1', keys.paymentsLog())).find((row) => row.jobId === jobId) as PaymentRecord & { status: string };
  /** Every admin action of the type, newest first: page after page (each holds 50). */
  const actions = async (type: string) => {
    const items: AdminActionView[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page: Page<AdminActionView> = (await api<Page<AdminActionView>>(stack(), 'GET', `/admin/actions?type=${type}${query}`, { token: admin.idToken })).body;
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  };
  /** What Stripe holds: the simulator, like Stripe, refuses a second refund of a refunded charge. */
  const refundedOnStripe = async (paymentIntentId: string) => {
    const intent = await stripeOf(stack()).paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
    const { refunded, amount_refunded } = intent.latest_charge as { refunded: boolean; amount_refunded: number };
    return { refunded, amount_refunded };
  };
  const notifications = async (user: TestUser) =>
    (await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: user.idToken })).body.items;

  beforeAll(async () => {
    [admin, poster] = await Promise.all([createUser(stack(), { role: 'admin' }), createPoster(stack(), { name: posterName })]);
  });

  it('answers 403 to a signed-in non-admin on every admin route', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    expect(ADMIN_ROUTES).toEqual(expect.arrayContaining(['GET /admin/payments', 'GET /admin/jobs', 'GET /admin/flags', 'GET /admin/markets', 'GET /admin/actions']));
    const refused: string[] = [];
    for (const routeKey of ADMIN_ROUTES) {
      const [method, template] = routeKey.split(' ') as [string, string];
      for (const user of [poster, worker]) {
        const response = await api(stack(), method, samplePath(template), { token: user.idToken, body: method === 'GET' ? undefined : { reason: 'x' } });
        if (response.status !== 403) refused.push(`${routeKey} -> ${response.status}`);
      }
    }
    expect(refused).toEqual([]);

    // Each refusal is a security event (spec 1 §6): one entry per user and route within the hour, however often it is tried.
    await api(stack(), 'GET', '/admin/jobs', { token: worker.idToken });
    const events = await actions('insufficient_permissions');
    const recorded = (user: TestUser) => events.filter((event) => event.targetId === user.userId).map((event) => event.details.operation as string);
    expect(recorded(worker).sort()).toEqual([...ADMIN_ROUTES].sort());
    expect(recorded(poster).sort()).toEqual([...ADMIN_ROUTES].sort());
    expect(events[0]).toMatchObject({ adminId: 'system', targetType: 'user', reason: MSG.auth.insufficientPermissions });
  });

  it('refunds a payment exactly once under 10 concurrent clicks, and answers 409 to another reason', async () => {
    const job = await postPaidJob(stack(), poster, form);
    const { id } = await paymentOf(job.id);
    const path = `/admin/payments/${id}/refund`;
    expect(await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: '  ' } })).toEqual({
      status: 400,
      body: { error: MSG.payments.refundReasonRequired, fields: { reason: MSG.payments.refundReasonRequired } },
    });

    const clicks = await Promise.all(
      Array.from({ length: 10 }, () => api<{ refunded: boolean }>(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Duplicate listing' } })),
    );
    expect(clicks.every((click) => click.status === 200 || click.status === 409)).toBe(true);
    expect(clicks.filter((click) => click.status === 200 && click.body.refunded)).toHaveLength(1);
    expect(await refundedOnStripe(id)).toEqual({ refunded: true, amount_refunded: job.postedAmount });
    expect((await paymentOf(job.id)).status).toBe('refunded');
    expect((await actions('issue_refund')).filter((action) => action.targetId === id)).toHaveLength(1);

    expect(await api(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Another reason' } })).toEqual({
      status: 409,
      body: { error: MSG.admin.alreadyRefunded },
    });
    const listed = await api<Page<AdminPaymentRecord>>(stack(), 'GET', '/admin/payments', { token: admin.idToken });
    expect(listed.body.items.find((row) => row.id === id)).toMatchObject({
      status: 'refunded',
      refundReason: 'Duplicate listing',
      jobTitle: form.title,
      posterName: posterName,
      workerName: null,
    });
  });

  it('cancels any job exactly once under 10 concurrent clicks, with the refund and the poster told why', async () => {
    poster = await createPoster(stack());
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Cancelled by the admin' });
    const path = `/jobs/${job.id}/cancel`;
    expect((await api(stack(), 'POST', path, { token: admin.idToken, body: {} })).body).toMatchObject({ error: MSG.admin.cancelReasonRequired });

    const clicks = await Promise.all(
      Array.from({ length: 10 }, () => api<JobSummary>(stack(), 'POST', path, { token: admin.idToken, body: { reason: 'Listing breaks the rules' } })),
    );
    expect(clicks.filter((click) => click.status === 200)).toHaveLength(1);
    expect(clicks.filter((click) => click.status !== 200).every((click) => click.status === 409)).toBe(true);
    await settle(stack());

    const { id, status } = await paymentOf(job.id);
    expect(status).toBe('refunded');
    expect(await refundedOnStripe(id)).toEqual({ refunded: true, amount_refunded: job.postedAmount });
    expect((await actions('cancel_job')).filter((action) => action.targetId === job.id)).toEqual([
      expect.objectContaining({ adminId: admin.userId, reason: 'Listing breaks the rules' }),
    ]);
    expect(await notifications(poster)).toContainEqual(
      expect.objectContaining({ type: 'job_moderated', message: MSG.admin.cancelledNoticeMessage(job.title, 'Listing breaks the rules') }),
    );
  });

  it('deletes any job with a reason, refunding an open paid job', async () => {
    poster = await createPoster(stack());
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Deleted by the admin' });
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: admin.idToken })).body).toMatchObject({ error: MSG.admin.deleteReasonRequired });
    expect((await api(stack(), 'DELETE', `/jobs/${job.id}`, { token: admin.idToken, body: { reason: 'Spam' } })).status).toBe(204);
    await settle(stack());
    expect((await api(stack(), 'GET', `/jobs/${job.id}`, { token: poster.idToken })).status).toBe(404);
    expect((await paymentOf(job.id)).status).toBe('refunded');
    expect((await actions('delete_job')).map((action) => action.targetId)).toContain(job.id);
    expect(await notifications(poster)).toContainEqual(expect.objectContaining({ message: MSG.admin.removedNoticeMessage(job.title, 'Spam') }));
  });

  it('takes reports once per user, flags contact details itself, and removes a reported job on review', async () => {
    poster = await createPoster(stack());
    const reporter = await createUser(stack(), { role: 'worker', name: 'Rita Reporter' });
    const job = await postPaidJob(stack(), poster, { ...form, title: 'Reported job' });
    const report = { flagType: 'scam', reason: 'Asks for a deposit' };
    expect((await api(stack(), 'POST', `/jobs/${job.id}/flags`, { token: reporter.idToken, body: report })).status).toBe(201);
    expect(await api(stack(), 'POST', `/jobs/${job.id}/flags`, { token: reporter.idToken, body: report })).toEqual({
      status: 409,
      body: { error: MSG.flags.alreadyReported },
    });
    expect((await api(stack(), 'POST', `/jobs/${job.id}/flags`, { token: poster.idToken, body: report })).status).toBe(400);

    const contact = await postPaidJob(stack(), poster, { ...form, title: 'Call me', description: 'Text 512-555-0199 and pay with Venmo.' });
    await settle(stack());
    const pending = (await api<Page<AdminFlaggedJob>>(stack(), 'GET', '/admin/flags', { token: admin.idToken })).body.items;
    expect(pending.find((flag) => flag.jobId === contact.id)).toMatchObject({ reporterId: 'system#text', reporterName: null, flagType: 'off_platform_payment', status: 'pending' });
    expect(pending.find((flag) => flag.jobId === job.id)).toMatchObject({
      reporterId: reporter.userId,
      reporterName: 'Rita Reporter',
      flagType: 'scam',
      reason: 'Asks for a deposit',
    });

    const review = (jobId: string, body: object) => api(stack(), 'POST', `/admin/flags/${jobId}/review`, { token: admin.idToken, body });
    expect((await review(contact.id, { decision: 'approved' })).status).toBe(200);
    expect((await review(contact.id, { decision: 'approved' })).status).toBe(409);
    expect((await review(job.id, { decision: 'removed', notes: '' })).body).toMatchObject({ error: MSG.admin.reviewNotesRequired });
    expect((await review(job.id, { decision: 'removed', notes: 'Scam listing' })).status).toBe(200);
    await settle(stack());

    expect((await api<JobSummary>(stack(), 'GET', `/jobs/${job.id}`, { token: poster.idToken })).body.status).toBe('cancelled');
    expect((await paymentOf(job.id)).status).toBe('refunded');
    expect(await notifications(poster)).toContainEqual(expect.objectContaining({ message: MSG.admin.cancelledNoticeMessage(job.title, 'Scam listing') }));
    const stillPending = (await api<Page<AdminFlaggedJob>>(stack(), 'GET', '/admin/flags', { token: admin.idToken })).body.items;
    expect(stillPending.map((flag) => flag.jobId)).not.toContain(job.id);
    expect((await actions('review_flagged_job')).map((action) => action.targetId)).toEqual(expect.arrayContaining([job.id, contact.id]));
  });

  it('keeps market and category analytics equal to a recomputation from the jobs after a scripted history of 84 jobs', async () => {
    /** No other job of this file is in these; in their declared order, the order of the list. */
    const categories = ['Moving', 'Delivery'] as const;
    const markets = [
      ['Boise', 'ID'],
      ['Denver', 'CO'],
      ['Portland', 'OR'],
    ] as const;
    const day = 86_400_000;
    // 84 = twice every path (7) in every market (3) and category (2); creation days (i * 7) % 60 take every value 0-59.
    const jobs: JobItem[] = Array.from({ length: 84 }, (_, i) => {
      const [city, state] = markets[i % markets.length]!;
      const createdAt = new Date(Date.now() - ((i * 7) % 60) * day - i * 1000).toISOString();
      const price = quotePrice(1000 + (i % 17) * 500);
      return {
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        title: `Scripted job ${i}`,
        description: 'A job of the scripted history.',
        location: `${city}, ${state}`,
        fullAddress: `1 Main St, ${city}, ${state}`,
        payment: price.payment,
        platformFee: price.platformFee,
        postedAmount: price.postedAmount,
        category: categories[i % 2],
        date: createdAt.slice(0, 10),
        duration: '1 hour',
        status: 'open',
        posterId: poster.userId,
        pendingApplications: 0,
        skills: [],
        imageKeys: [],
        createdAt,
        updatedAt: createdAt,
        requirements: [],
      } as JobItem;
    });
    /** Each job's path through the lifecycle; some end deleted (null). */
    const paths: (JobStatus | null)[][] = jobs.map((_, i) =>
      [
        ['open'],
        ['open', 'assigned'],
        ['open', 'assigned', 'completed', 'paid'],
        ['open', 'assigned', 'cancelled'],
        ['open', null],
        ['open', 'cancelled'],
        ['open', 'assigned', 'completed'],
      ][i % 7]! as (JobStatus | null)[],
    );
    /** The change that brings a job to the status (each path's statuses are named as their changes, but for posting and deletion). */
    const changeTo = (status: JobStatus | null): JobChange => (status === null ? 'deleted' : status === 'open' ? 'posted' : (status as JobChange));
    /** A change and its job event, as the domain writes them (the event through the outbox). */
    const change = (job: JobItem, status: JobStatus | null, type: (typeof JOB_EVENT)[keyof typeof JOB_EVENT]) =>
      transactWrite([
        status === null
          ? { Delete: { TableName: stack().tableName, Key: keys.job(job.id) } }
          : { Put: { TableName: stack().tableName, Item: { ...keys.job(job.id), type: 'job', ...job, status, ...jobIndexKeys({ ...job, status }) } } },
        jobEvent(type, { ...job, ...(status ? { status } : {}) }, changeTo(status)),
      ]);
    /** The same event again, later: a redelivery. */
    const redeliver = (job: JobItem, type: (typeof JOB_EVENT)[keyof typeof JOB_EVENT], change: JobChange) => transactWrite([jobEvent(type, job, change)]);

    // Steps of all jobs interleaved, in batches; every event is delivered twice, the second time a batch later.
    let redeliveries: [JobItem, (typeof JOB_EVENT)[keyof typeof JOB_EVENT], JobChange][] = [];
    for (let step = 0; step < 4; step++) {
      const batch = jobs.flatMap((job, i) => (paths[i]!.length > step ? [[job, paths[i]![step]!] as const] : []));
      for (let start = 0; start < batch.length; start += 25) {
        const late = redeliveries;
        redeliveries = [];
        await Promise.all([
          ...late.map(([job, type, change]) => redeliver(job, type, change)),
          ...batch.slice(start, start + 25).map(async ([job, status]) => {
            const type = status === null ? JOB_EVENT.removed : step === 0 ? JOB_EVENT.posted : JOB_EVENT.updated;
            await change(job, status, type);
            if (status !== null) job.status = status;
            redeliveries.push([{ ...job }, type, changeTo(status)]);
          }),
        ]);
        await stack().events.idle();
      }
    }
    await Promise.all(redeliveries.map(([job, type, change]) => redeliver(job, type, change)));
    await stack().events.idle();

    // The recomputation: straight from the job items that exist now.
    const existing = (await Promise.all(JOB_STATUSES.map((status) => queryIndex(stack(), 'GSI1', keys.jobsByStatus(status))))).flat() as JobItem[];
    const scripted = existing.filter((job) => job.title.startsWith('Scripted job'));
    const since = new Date(Date.now() - 29 * day).toISOString().slice(0, 10);
    const expected = markets.map(([city, state]) => {
      const here = scripted.filter((job) => job.location === `${city}, ${state}`);
      const paid = here.filter((job) => job.status === 'paid');
      const cancelled = here.filter((job) => job.status === 'cancelled').length;
      return {
        market: `${city}, ${state}`,
        openJobs: here.filter((job) => job.status === 'open').length,
        jobsLast30Days: here.filter((job) => job.createdAt.slice(0, 10) >= since).length,
        paidJobs: paid.length,
        cancelledJobs: cancelled,
        revenue: paid.reduce((sum, job) => sum + job.payment, 0),
        profit: paid.reduce((sum, job) => sum + job.platformFee, 0),
        completionRate: completionRate(paid.length, cancelled),
      };
    });
    const analytics = (await api<MarketAnalytics>(stack(), 'GET', '/admin/markets', { token: admin.idToken })).body;
    for (const market of expected) {
      expect(analytics.items.find((row) => row.market === market.market)).toMatchObject(market);
    }
    // The chart's days: the jobs posted on each of the last 30 days in every market, this file's other jobs too.
    const counted = existing.filter((job) => job.status !== 'awaiting_payment' && !job.deletingAt);
    expect(analytics.days).toEqual(recentPeriods('day', 30, new Date()).map((day) => ({ day, jobs: counted.filter((job) => job.createdAt.startsWith(day)).length })));

    const expectedCategories = categories.map((category) => {
      const here = scripted.filter((job) => job.category === category);
      return {
        category,
        hidden: false,
        openJobs: here.filter((job) => job.status === 'open').length,
        completedJobs: here.filter((job) => job.status === 'completed' || job.status === 'paid').length,
        averagePayment: Math.round(here.reduce((sum, job) => sum + job.payment, 0) / here.length),
        revenue: here.filter((job) => job.status === 'paid').reduce((sum, job) => sum + job.payment, 0),
      };
    });
    const categoryFigures = (await api<{ items: CategoryStats[] }>(stack(), 'GET', '/admin/categories', { token: admin.idToken })).body.items;
    expect(categoryFigures.filter((row) => (categories as readonly string[]).includes(row.category))).toEqual(expectedCategories);

    // The landing cards' ranges, for a visitor: from the band of the job a tenth of the way up the
    // payments of the jobs paid for and not refunded, to the band of the one nine tenths up.
    const expectedRanges = categories.map((category) => {
      const payments = scripted
        .filter((job) => job.category === category && job.status !== 'cancelled')
        .map((job) => job.payment)
        .sort((a, b) => a - b);
      const at = (share: number) => payments[Math.ceil(payments.length * share) - 1]!;
      return { category, range: { fromCents: payBandOf(at(0.1)), toCents: payBandCeiling(payBandOf(at(0.9))) } };
    });
    const earnings = await api<{ items: CategoryEarnings[] }>(stack(), 'GET', '/categories/earnings');
    expect(earnings.status).toBe(200);
    expect(earnings.body.items.filter((row) => (categories as readonly string[]).includes(row.category))).toEqual(expectedRanges);
  }, 480_000);

  it('hides a category from new jobs with a reason, keeps the jobs already in it, and shows it again', async () => {
    poster = await createPoster(stack());
    const category = 'Pet Care';
    const setHidden = (hidden: boolean, reason: string) =>
      api(stack(), 'PUT', '/admin/categories', { token: admin.idToken, body: { category, hidden, reason } });
    const hiddenNow = async () => (await api<{ items: string[] }>(stack(), 'GET', '/categories/hidden', { token: poster.idToken })).body.items;
    const existing = await postPaidJob(stack(), poster, { ...form, title: 'Walk the dog', category });
    const other = await postPaidJob(stack(), poster, { ...form, title: 'Wash the car' });
    await settle(stack()); // the category's figures are counted by the market-stats rule

    expect(await setHidden(true, ' ')).toMatchObject({ status: 400, body: { error: MSG.admin.categoryReasonRequired } });
    expect((await setHidden(true, 'Too many scams lately')).status).toBe(200);
    expect(await hiddenNow()).toEqual([category]);
    const listed = (await api<{ items: CategoryStats[] }>(stack(), 'GET', '/admin/categories', { token: admin.idToken })).body.items;
    expect(listed.find((row) => row.category === category)).toMatchObject({ hidden: true, openJobs: 1, averagePayment: form.payment });

    // No new job in it, and no job moves into it; the job already there stays and can still be edited.
    expect(await api(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, category } })).toEqual({
      status: 400,
      body: { error: MSG.jobs.categoryNotPostable, fields: { category: MSG.jobs.categoryNotPostable } },
    });
    expect((await api(stack(), 'PUT', `/jobs/${other.id}`, { token: poster.idToken, body: { ...form, title: 'Wash the car', category } })).status).toBe(400);
    const edited = await api<JobSummary>(stack(), 'PUT', `/jobs/${existing.id}`, { token: poster.idToken, body: { ...form, title: 'Walk two dogs', category } });
    expect(edited).toMatchObject({ status: 200, body: { title: 'Walk two dogs', category, status: 'open' } });
    expect((await api<JobSummary>(stack(), 'GET', `/jobs/${existing.id}`, { token: poster.idToken })).body.status).toBe('open');

    expect((await setHidden(false, 'Scams dealt with')).status).toBe(200);
    expect(await hiddenNow()).toEqual([]);
    expect((await api(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, category } })).status).toBe(201);
    expect((await actions('hide_category')).find((action) => action.targetId === category)).toMatchObject({ adminId: admin.userId, reason: 'Too many scams lately' });
    expect((await actions('show_category')).find((action) => action.targetId === category)).toMatchObject({ reason: 'Scams dealt with' });
  });

  it('counts workers with a location and with alerts on in their market, moving them as they change', async () => {
    const [first, second] = await Promise.all([createUser(stack(), { role: 'worker' }), createUser(stack(), { role: 'worker' })]);
    const workersIn = async (market: string) => {
      const row = (await api<{ items: MarketStats[] }>(stack(), 'GET', '/admin/markets', { token: admin.idToken })).body.items.find((item) => item.market === market);
      return [row?.workersWithLocation ?? 0, row?.workersWithAlerts ?? 0];
    };
    const zone = 'America/Chicago';
    const put = (worker: TestUser, path: string, body: object) => api(stack(), 'PUT', path, { token: worker.idToken, body });
    const before = await workersIn('Austin, TX');

    // A zip and browser coordinates both land in the nearest zip code's city.
    expect((await put(first, '/me/location', { zip: '78701', timeZone: zone })).status).toBe(200);
    expect((await put(second, '/me/location', { latitude: 30.2672, longitude: -97.7431, timeZone: zone })).status).toBe(200);
    expect(await workersIn('Austin, TX')).toEqual([before[0]! + 2, before[1]! + 2]);

    // Alerts off: still located there, no longer alerted; a second identical save changes nothing.
    const off = { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: false };
    expect((await put(first, '/me/notification-preferences', off)).status).toBe(200);
    expect((await put(first, '/me/notification-preferences', off)).status).toBe(200);
    expect(await workersIn('Austin, TX')).toEqual([before[0]! + 2, before[1]! + 1]);

    // Moving to New York moves the worker's share with them.
    const newYorkBefore = await workersIn('New York, NY');
    expect((await put(second, '/me/location', { zip: '10001', timeZone: 'America/New_York' })).status).toBe(200);
    expect(await workersIn('Austin, TX')).toEqual([before[0]! + 1, before[1]!]);
    expect(await workersIn('New York, NY')).toEqual([newYorkBefore[0]! + 1, newYorkBefore[1]! + 1]);
  });

  it('moves list items written before sharding to their shard, where the lists find them (npm run backfill:list-shards)', async () => {
    // As the previous release wrote them: each list's one GSI1 partition.
    const job = newJob(createJobSchema.parse(form), poster.userId, new Date().toISOString());
    const action = adminActionItem({ adminId: admin.userId, actionType: 'delete_job', targetType: 'job', targetId: job.id, details: {}, reason: 'Written before sharding' });
    const market = 'Unshardedville, ZZ';
    const unsharded = [
      { ...keys.job(job.id), type: 'job', ...job, ...jobIndexKeys(job), gsi1pk: 'JOBS#open' },
      { ...action, gsi1pk: 'ADMINACTIONS' },
      { ...keys.marketTotals(market), market, openJobs: 1, gsi1pk: 'MARKETS', gsi1sk: market.toLowerCase() },
    ];
    await tableClient(stack()).send(new BatchWriteCommand({ RequestItems: { [stack().tableName]: unsharded.map((Item) => ({ PutRequest: { Item } })) } }));
    const asAdmin = <T,>(path: string) => api<T>(stack(), 'GET', path, { token: admin.idToken });
    const listed = async () => ({
      job: (await asAdmin<Page<JobSummary>>('/admin/jobs?status=open')).body.items.some((item) => item.id === job.id),
      action: (await asAdmin<Page<AdminActionView>>('/admin/actions')).body.items.some((item) => item.id === action.id),
      market: (await asAdmin<{ items: MarketStats[] }>('/admin/markets')).body.items.some((item) => item.market === market),
    });
    expect(await listed()).toEqual({ job: false, action: false, market: false });

    expect(await backfillListShards(tableClient(stack()), stack().tableName)).toEqual({ moved: 3, skipped: 0 });
    expect(await listed()).toEqual({ job: true, action: true, market: true });
    expect((await queryIndex(stack(), 'GSI1', keys.jobsByStatus('open'))).find((item) => item.id === job.id)?.gsi1pk).toBe(keys.jobsByStatus('open').partitionOf(job.id));
    // A second run finds nothing left to move.
    expect(await backfillListShards(tableClient(stack()), stack().tableName)).toEqual({ moved: 0, skipped: 0 });
  });
});
