import { describe, expect, it } from 'vitest';
import { applySchema, declineCompletionSchema } from '../../shared/schemas/application.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { profileUpdateSchema } from '../../shared/schemas/profile.js';
import { reviewSchema } from '../../shared/schemas/review.js';
import { containsLoneSurrogate, sanitizeText } from '../../shared/text.js';

const MARKUP = '<b>Fix</b> the <a href="javascript:alert(1)" onclick=steal()>sink</a><script>alert(1)</script> 2 > 1';
const CLEAN = 'Fix the sinkalert(1) 2  1';

describe('one cleaning rule for every free-text field', () => {
  it('drops tags and keeps their text', () => {
    expect(sanitizeText(MARKUP)).toBe(CLEAN);
    expect(sanitizeText('a <img src=x onerror=alert(1)> b')).toBe('a  b');
    expect(sanitizeText('Plain text, 100% fine.')).toBe('Plain text, 100% fine.');
  });

  it('is applied by the job, application, review and profile schemas', () => {
    const job = createJobSchema.parse({
      title: MARKUP,
      description: MARKUP,
      address: { street: '<i>1 Main</i>', city: 'Austin', state: 'TX' },
      payment: 5000,
      category: 'Home Projects',
      date: new Date().toISOString().slice(0, 10),
      duration: '<u>2 hours</u>',
      requirements: [MARKUP],
      skills: ['<em>Plumbing</em>'],
    });
    expect(job).toMatchObject({ title: CLEAN, description: CLEAN, address: { street: '1 Main' }, duration: '2 hours', requirements: [CLEAN], skills: ['Plumbing'] });
    expect(applySchema.parse({ message: MARKUP }).message).toBe(CLEAN);
    expect(declineCompletionSchema.parse({ reason: MARKUP }).reason).toBe(CLEAN);
    expect(reviewSchema.parse({ rating: 5, comment: MARKUP }).comment).toBe(CLEAN);
    expect(profileUpdateSchema.parse({ name: '<b>Wes</b>' }).name).toBe('Wes');
  });

  it('finds lone surrogates anywhere in a parsed body, keys included', () => {
    expect(containsLoneSurrogate(JSON.parse('{"a":["ok","\\ud800"]}'))).toBe(true);
    expect(containsLoneSurrogate(JSON.parse('{"\\udc00":1}'))).toBe(true);
    expect(containsLoneSurrogate({ a: ['😀', 1, null] })).toBe(false);
  });

  it('walks a value of any depth and width without running out of stack', () => {
    let deep: unknown = '\ud800';
    for (let level = 0; level < 100_000; level++) deep = level % 2 ? [deep] : { a: deep };
    expect(containsLoneSurrogate(deep)).toBe(true);
    expect(containsLoneSurrogate(Array.from({ length: 500_000 }, () => 'ok'))).toBe(false);
  });
});
