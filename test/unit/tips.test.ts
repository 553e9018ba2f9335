import { describe, expect, it } from 'vitest';
import { TIP_RULES, tipAmountProblem, tipPresetCents, tipWindowEndsAt } from '../../shared/tips.js';

describe('tip rules (shared by the form and the server)', () => {
  it('offers 10, 15 and 20% of the payment, in whole cents', () => {
    expect(TIP_RULES.presetPercents.map((percent) => tipPresetCents(5000, percent))).toEqual([500, 750, 1000]);
    expect(tipPresetCents(3333, 15)).toBe(500);
  });

  it("takes from Stripe's $0.50 minimum up to the job's payment, whole cents only", () => {
    expect(tipAmountProblem(50, 5000)).toBeNull();
    expect(tipAmountProblem(5000, 5000)).toBeNull();
    expect(tipAmountProblem(49, 5000)).toBe('The smallest tip is $0.50.');
    expect(tipAmountProblem(10.5, 5000)).toBe('The smallest tip is $0.50.');
    expect(tipAmountProblem(5001, 5000)).toBe("A tip can be at most the job's payment ($50.00).");
  });

  it('closes 7 days after the release', () => {
    expect(tipWindowEndsAt('2026-11-01T10:00:00.000Z')).toBe('2026-11-08T10:00:00.000Z');
  });
});
