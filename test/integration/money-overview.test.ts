import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Page, PaymentRecord } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { moneyPeriodOf, type MoneyOverview, type MoneySeries } from '../../shared/money.js';
import { recentPeriods } from '../../shared/series.js';
import { keys } from '../../functions/table.js';
import { postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, settle } from '../support/payments.js';

describe("the admin's money overview", () => {
  const stack = useLocalStack();
  // The one admin seat: both tests act as the same admin.
  let adminUser: Promise<TestUser> | undefined;
  const signedInAdmin = () => (adminUser ??= createUser(stack(), { role: 'admin' }));

  const overview = async (admin: TestUser, kind: 'day' | 'month') => {
    const response = await api<MoneyOverview>(stack(), 'GET', `/admin/payments/overview?kind=${kind}&period=${moneyPeriodOf(kind, new Date().toISOString())}`, {
      token: admin.idToken,
    });
    expect(response.status).toBe(200);
    return response.body;
  };

  it("counts payments taken and refunded in the period's counters, and applies the spec's formulas", async () => {
    const [admin, poster] = await Promise.all([signedInAdmin(), createPoster(stack())]);
    const before = await overview(admin, 'day');

    const kept = await postOpenJob(stack(), poster, { title: 'Kept', payment: 6000 });
    const refunded = await postOpenJob(stack(), poster, { title: 'Refunded', payment: 10000 });
    const rows = (await api<Page<PaymentRecord>>(stack(), 'GET', '/admin/payments', { token: admin.idToken })).body.items;
    const [keptRow, refundedRow] = [kept, refunded].map((job) => rows.find((row) => row.jobId === job.id)!);
    const refund = await api(stack(), 'POST', `/admin/payments/${refundedRow!.id}/refund`, { token: admin.idToken, body: { reason: 'Duplicate listing' } });
    expect(refund.status).toBe(200);
    // Stripe's refund.created webhook arrives too: the refund is still counted once.
    await settle(stack());

    const [day, month] = [await overview(admin, 'day'), await overview(admin, 'month')];
    const taken = [keptRow!, refundedRow!];
    const sum = (pick: (row: PaymentRecord) => number) => taken.reduce((total, row) => total + pick(row), 0);
    expect({
      payments: day.payments - before.payments,
      gross: day.gross - before.gross,
      platformFees: day.platformFees - before.platformFees,
      cardFees: day.cardFees - before.cardFees,
      refunds: day.refunds - before.refunds,
      refundedAmount: day.refundedAmount - before.refundedAmount,
    }).toEqual({
      payments: 2,
      gross: 6840 + 11400,
      platformFees: 840 + 1400,
      cardFees: sum((row) => row.stripeFee),
      refunds: 1,
      refundedAmount: 11400,
    });
    expect(sum((row) => row.stripeFee)).toBeGreaterThan(0);

    // The spec's formulas on the period's totals; the month holds at least the day.
    expect(day.workerPayouts).toBe(day.gross - day.platformFees);
    expect(day.siteProfit).toBe(day.platformFees - day.cardFees);
    expect(day.profitMarginPercent).toBe(Math.round((day.siteProfit / day.gross) * 1000) / 10);
    expect(day.tips).toBe(0);
    expect(month.gross).toBeGreaterThanOrEqual(day.gross);
    expect(month.kind).toBe('month');
  });

  it('answers the last 30 days and the last 12 months from one query, oldest first, with a zero period where nothing moved', async () => {
    const admin = await signedInAdmin();
    const now = new Date();
    const [today, thisMonth] = [moneyPeriodOf('day', now.toISOString()), moneyPeriodOf('month', now.toISOString())];
    const days = recentPeriods('day', 31, now);
    const months = recentPeriods('month', 13, now);
    // Totals as the ledger's transactions leave them, on days and months of the window and just before it.
    const write = (kind: 'day' | 'month', period: string, gross: number) =>
      tableClient(stack()).send(
        new PutCommand({ TableName: stack().tableName, Item: { ...keys.moneyTotals(kind, period), type: 'moneyTotals', kind, payments: 1, gross, platformFees: 100, refundedAmount: 50 } }),
      );
    await Promise.all([write('day', days[0]!, 999_999), write('day', days[1]!, 1000), write('day', days[15]!, 2000), write('month', months[0]!, 999_999), write('month', months[1]!, 3000)]);

    const series = async (kind: 'day' | 'month') => {
      const response = await api<MoneySeries>(stack(), 'GET', `/admin/payments/overview/series?kind=${kind}`, { token: admin.idToken });
      expect(response.status).toBe(200);
      return response.body;
    };
    const daily = await series('day');
    expect(daily.periods.map((period) => period.period)).toEqual(days.slice(1));
    expect(daily.periods[0]).toMatchObject({ kind: 'day', gross: 1000, platformFees: 100, refundedAmount: 50, workerPayouts: 900 });
    expect(daily.periods[14]!.gross).toBe(2000);
    expect(daily.periods.filter((period, i) => i !== 0 && i !== 14 && period.period !== today).every((period) => period.gross === 0 && period.profitMarginPercent === null)).toBe(true);
    // Today's entry is the overview of today, as the money overview card reads it.
    expect(daily.periods.at(-1)).toEqual(await overview(admin, 'day'));

    const monthly = await series('month');
    expect(monthly.periods.map((period) => period.period)).toEqual(months.slice(1));
    expect(monthly.periods[0]).toMatchObject({ kind: 'month', gross: 3000 });
    expect(monthly.periods.at(-1)).toEqual(await overview(admin, 'month'));
    expect(monthly.periods.at(-1)!.period).toBe(thisMonth);

    const bad = await api<{ error: string }>(stack(), 'GET', '/admin/payments/overview/series?kind=year', { token: admin.idToken });
    expect([bad.status, bad.body.error]).toEqual([400, MSG.admin.invalidMoneyPeriod]);
  });

  it('answers an empty period with zeros and no margin, refuses a malformed period and anyone but the admin', async () => {
    const [admin, poster] = await Promise.all([signedInAdmin(), createPoster(stack())]);
    const empty = await api<MoneyOverview>(stack(), 'GET', '/admin/payments/overview?kind=month&period=1999-01', { token: admin.idToken });
    expect(empty.body).toMatchObject({ period: '1999-01', gross: 0, workerPayouts: 0, siteProfit: 0, profitMarginPercent: null, tips: 0 });

    for (const query of ['kind=day&period=2026-11', 'kind=month&period=2026-11-01', 'kind=year&period=2026']) {
      const bad = await api<{ error: string }>(stack(), 'GET', `/admin/payments/overview?${query}`, { token: admin.idToken });
      expect([bad.status, bad.body.error]).toEqual([400, MSG.admin.invalidMoneyPeriod]);
    }
    expect((await api(stack(), 'GET', '/admin/payments/overview', { token: poster.idToken })).status).toBe(403);
    expect((await api(stack(), 'GET', '/admin/payments/overview/series?kind=day', { token: poster.idToken })).status).toBe(403);
  });
});
