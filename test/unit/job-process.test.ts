import { describe, expect, it } from 'vitest';
import { JOB_PROCESS, JOB_STATUSES, MONEY_STATES, PENDING_MONEY, canPerform, moneyStateOf, type JobAction, type Transition } from '../../shared/job-process.js';
import { balances, jobInvariantProblems, jobMoneyPosition } from '../../shared/ledger.js';

const transitions = Object.entries(JOB_PROCESS) as Array<[JobAction, Transition]>;

describe('the job process declaration (issue 34)', () => {
  it('lets money leave the escrow only from held, each money action once through its own pending state', () => {
    for (const [action, transition] of transitions) {
      if (!transition.moneyTo || !PENDING_MONEY[transition.moneyTo]) continue;
      expect(transition.settles, action).toBeDefined();
      // A pending state is the decision of exactly one owner action; every action pending in it settles where its owner does.
      const owner = PENDING_MONEY[transition.moneyTo]!;
      expect((JOB_PROCESS[owner] as Transition).settles?.money, action).toBe(transition.settles!.money);
      // Held or released money — or, on a job of several charges, what the others hold once the bank kept one (refundRest).
      expect(transition.money.every((money) => money === 'held' || money === 'released' || (action === 'refundRest' && money === 'charged_back')), action).toBe(true);
    }
    // Only the admin reverses a release.
    expect(JOB_PROCESS.reverse).toMatchObject({ money: ['released'], by: ['admin'] });
  });

  it('refuses every release once the money was refunded, split or is being decided otherwise', () => {
    for (const moneyState of MONEY_STATES.filter((money) => money !== 'held')) {
      expect(canPerform('release', { status: 'completed', moneyState }), moneyState).toBe(false);
    }
    expect(canPerform('release', { status: 'completed', moneyState: 'held' })).toBe(true);
  });

  it("refuses the poster's delete and cancel of a completed job with held money, and lets the admin decide it", () => {
    const completed = { status: 'completed', moneyState: 'held' } as const;
    expect(canPerform('delete', completed)).toBe(false);
    expect(canPerform('cancel', completed)).toBe(false);
    expect(canPerform('adminCancel', completed)).toBe(true);
    expect(canPerform('adminDelete', completed)).toBe(true);
    expect(canPerform('delete', { status: 'open' })).toBe(true);
    expect(canPerform('delete', { status: 'assigned' })).toBe(false);
  });

  it('reads the money of a job stored before money states from its status', () => {
    expect(JOB_STATUSES.map((status) => moneyStateOf({ status }))).toEqual(['unpaid', 'held', 'held', 'held', 'released', 'refunded']);
    expect(moneyStateOf({ status: 'completed', moneyState: 'refunded' })).toBe('refunded');
  });
});

describe('the ledger (issue 34)', () => {
  const escrow = 'escrow:j';
  const charge = { kind: 'charge', from: 'card:p', to: escrow, amount: 5700 } as const;
  const transfer = { kind: 'transfer', from: escrow, to: 'worker:w', amount: 5000 } as const;
  const fee = { kind: 'platform_fee', from: escrow, to: 'platform:revenue', amount: 700 } as const;
  const refund = { kind: 'refund', from: escrow, to: 'card:p', amount: 5700 } as const;

  it('balances every movement: all accounts sum to zero', () => {
    const total = [...balances([charge, transfer, fee]).values()].reduce((sum, balance) => sum + balance, 0);
    expect(total).toBe(0);
    expect(jobMoneyPosition('j', [charge, transfer, fee])).toEqual({ moneyIn: 5700, moneyOut: 5000, escrow: 0, platformFee: 700, loss: 0 });
    expect(jobInvariantProblems('j', [charge, transfer, fee])).toEqual([]);
  });

  it('reports a job that paid out more than it took in, and an escrow that went negative on the way', () => {
    expect(jobInvariantProblems('j', [charge, refund, transfer])).toEqual([
      'escrow of job j negative (-5000) after transfer',
      'job j paid out 10700 of 5700 taken in',
    ]);
    expect(jobInvariantProblems('j', [transfer, charge])[0]).toContain('negative');
  });

  it("accepts money out beyond what came in only as far as the ledger records it as the platform's loss", () => {
    // A chargeback after release: the bank takes back what the worker was paid with.
    const chargeback = { kind: 'chargeback', from: escrow, to: 'card:p', amount: 5700 } as const;
    expect(jobInvariantProblems('j', [charge, transfer, fee, chargeback])[0]).toContain('negative');
    const covered = { kind: 'platform_loss', from: 'platform:revenue', to: escrow, amount: 5700 } as const;
    expect(jobInvariantProblems('j', [charge, transfer, fee, covered, chargeback])).toEqual([]);
    expect(jobMoneyPosition('j', [charge, transfer, fee, covered, chargeback])).toMatchObject({ moneyOut: 10700, loss: 5700, escrow: 0 });
  });
});
