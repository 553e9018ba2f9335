import { describe, expect, it } from 'vitest';
import { cashOutOf, instantPayoutFee } from '../../shared/payouts.js';

describe('cashing out an instant balance', () => {
  it('charges 1.5% with a $0.50 minimum', () => {
    expect([instantPayoutFee(100), instantPayoutFee(3333), instantPayoutFee(3334), instantPayoutFee(10_000)]).toEqual([50, 50, 50, 150]);
  });

  it('pays out the largest amount whose fee still fits the balance, and nothing when the fee cannot be covered', () => {
    expect(cashOutOf(5000)).toEqual({ amount: 4926, fee: 74 });
    expect(cashOutOf(1000)).toEqual({ amount: 950, fee: 50 });
    expect([cashOutOf(50), cashOutOf(0)]).toEqual([null, null]);
    expect(cashOutOf(51)).toEqual({ amount: 1, fee: 50 });
    for (let balance = 51; balance < 20_000; balance += 7) {
      const { amount, fee } = cashOutOf(balance)!;
      expect(amount + fee).toBeLessThanOrEqual(balance);
      expect(amount + 1 + instantPayoutFee(amount + 1)).toBeGreaterThan(balance);
    }
  });
});
