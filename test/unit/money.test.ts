import { describe, expect, it } from 'vitest';
import { dollarsToCents, formatCents, platformFeeCents, quotePrice, totalEarnings } from '../../shared/money.js';

describe('the one fee rule', () => {
  it('charges 14% of the payment, at least $2, on top of the payment', () => {
    expect(platformFeeCents(5000)).toBe(700);
    expect(platformFeeCents(1000)).toBe(200); // 14% would be $1.40
    expect(platformFeeCents(1)).toBe(200);
    expect(platformFeeCents(100_000)).toBe(14_000);
    expect(platformFeeCents(1429)).toBe(200); // 200.06 rounds to 200
    expect(platformFeeCents(1433)).toBe(201); // 200.62 rounds up
  });

  it('quotes what the poster pays and what the worker receives', () => {
    expect(quotePrice(5000)).toEqual({ payment: 5000, platformFee: 700, postedAmount: 5700 });
  });
});

describe("a worker's earnings (issue 34: one figure everywhere)", () => {
  it("count paid jobs' payments, a split's part instead of the payment, and tips; nothing else", () => {
    const jobs = [
      { status: 'paid', payment: 5000, tip: 500 },
      { status: 'paid', payment: 4000, splitToWorker: 1500 },
      { status: 'completed', payment: 9000 },
      { status: 'cancelled', payment: 7000, tip: 300 },
    ];
    expect(totalEarnings(jobs)).toBe(5000 + 500 + 1500);
  });
});

describe('dollar amounts', () => {
  it('accepts digits with up to two decimals only', () => {
    expect(dollarsToCents('12')).toBe(1200);
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents(' 0.07 ')).toBe(7);
    expect(dollarsToCents('19.99')).toBe(1999);
    expect(dollarsToCents('1.234')).toBeNull();
    expect(dollarsToCents('-3')).toBeNull();
    expect(dollarsToCents('1e3')).toBeNull();
    expect(dollarsToCents('')).toBeNull();
  });

  it('formats cents as dollars with two decimals', () => {
    expect(formatCents(5700)).toBe('$57.00');
    expect(formatCents(100_000)).toBe('$1,000.00');
  });
});
