import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { EMPTY_JOB_FORM, splitLines, validateJobForm, type JobFormValues } from '../../shared/schemas/job.js';
import { canPerform } from '../../shared/job-process.js';

const filled: JobFormValues = {
  title: 'Assemble a desk',
  description: 'Flat-pack desk',
  street: '1 Main St',
  city: 'Austin',
  state: 'TX',
  payment: '45.50',
  category: 'Assembly',
  date: new Date().toISOString().slice(0, 10),
  duration: '2 hours',
  requirements: 'Drill\n\n  Screwdriver  \n',
  skills: '',
};

describe('the post-job form', () => {
  it('turns a filled form into the API request', () => {
    const result = validateJobForm(filled);
    expect(result).toEqual({
      ok: true,
      request: expect.objectContaining({
        payment: 4550,
        address: { street: '1 Main St', city: 'Austin', state: 'TX' },
        requirements: ['Drill', 'Screwdriver'],
        skills: [],
      }),
    });
  });

  it('asks for every required field first, then a valid payment', () => {
    expect(validateJobForm(EMPTY_JOB_FORM)).toMatchObject({ ok: false, formError: MSG.jobForm.fillAllRequired });
    expect(validateJobForm({ ...filled, city: '  ' })).toMatchObject({ ok: false, formError: MSG.jobForm.fillAllRequired });
    expect(validateJobForm({ ...filled, payment: '0' })).toMatchObject({ ok: false, formError: MSG.jobForm.validPayment });
    expect(validateJobForm({ ...filled, payment: 'abc' })).toMatchObject({ ok: false, formError: MSG.jobForm.validPayment });
  });

  it('reports field messages from the shared schema', () => {
    expect(validateJobForm({ ...filled, title: 'x'.repeat(101) })).toMatchObject({ fieldErrors: { title: MSG.jobForm.titleTooLong } });
    expect(validateJobForm({ ...filled, payment: '1000.01' })).toMatchObject({ fieldErrors: { payment: MSG.jobForm.paymentTooLarge } });
    expect(validateJobForm({ ...filled, payment: '1000' })).toMatchObject({ ok: true });
    expect(validateJobForm({ ...filled, category: 'Juggling' })).toMatchObject({ fieldErrors: { category: MSG.jobForm.categoryRequired } });
    expect(validateJobForm({ ...filled, date: '2001-01-01' })).toMatchObject({ fieldErrors: { date: MSG.jobForm.datePast } });
  });

  it('splits lists one per line, trimmed, without blanks', () => {
    expect(splitLines(' a \n\n b\r\n')).toEqual(['a', 'b']);
  });
});

describe('job state machine', () => {
  it('allows deletion only from open, completed, paid or cancelled', () => {
    expect(canPerform('delete', { status: 'open' })).toBe(true);
    expect(canPerform('delete', { status: 'assigned' })).toBe(false);
    expect(canPerform('cancel', { status: 'open' })).toBe(false);
    expect(canPerform('cancel', { status: 'assigned' })).toBe(true);
    expect(canPerform('edit', { status: 'assigned' })).toBe(false);
  });
});
