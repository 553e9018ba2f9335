import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAYMENT_LIMITS } from '../../shared/money.js';
import { PAY_BAND_FLOORS, earningsRangeOf, earningsRangeText, payBandCeiling, payBandOf } from '../../shared/earnings-ranges.js';

/** The bands' counts of some payments, as the market-stats rule keeps them. */
const bandsOf = (payments: readonly number[]) => {
  const bands = new Map<number, number>();
  for (const payment of payments) bands.set(payBandOf(payment), (bands.get(payBandOf(payment)) ?? 0) + 1);
  return bands;
};

const payment = fc.integer({ min: PAYMENT_LIMITS.minCents, max: PAYMENT_LIMITS.maxCents });

describe('earnings ranges of the landing category cards', () => {
  it('puts every payment in the one band whose edges hold it', () => {
    fc.assert(
      fc.property(payment, (cents) => {
        const floor = payBandOf(cents);
        expect(PAY_BAND_FLOORS).toContain(floor);
        expect(floor).toBeLessThanOrEqual(cents);
        expect(cents).toBeLessThanOrEqual(payBandCeiling(floor));
      }),
    );
  });

  it('runs from the band of the job a tenth of the way up to the band of the job nine tenths up, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(payment, { minLength: 1, maxLength: 60 }), (payments) => {
        const sorted = [...payments].sort((a, b) => a - b);
        const at = (share: number) => sorted[Math.ceil(sorted.length * share) - 1]!;
        expect(earningsRangeOf(bandsOf(payments))).toEqual({ fromCents: payBandOf(at(0.1)), toCents: payBandCeiling(payBandOf(at(0.9))) });
      }),
    );
  });

  it('leaves out the cheapest and dearest tenth: one odd job does not stretch the range', () => {
    const typical = Array.from({ length: 9 }, (_, i) => 4_500 + i * 300);
    expect(earningsRangeOf(bandsOf([...typical, 95_000]))).toEqual({ fromCents: 4_000, toCents: 7_000 });
    expect(earningsRangeOf(bandsOf([...typical, 100_000, 99_000]))).toEqual({ fromCents: 4_000, toCents: 100_000 });
  });

  it('has no range without a job, and says so on the card', () => {
    expect(earningsRangeOf(new Map())).toBeNull();
    expect(earningsRangeOf(new Map([[5_000, 0]]))).toBeNull();
    expect(earningsRangeText(null)).toBe('No paid jobs yet');
    expect(earningsRangeText({ fromCents: 4_000, toCents: 12_500 })).toBe('$40–$125 per job');
  });
});
