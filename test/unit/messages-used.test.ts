import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';

/**
 * Texts of the catalogue that nothing shows, kept on purpose, each with why
 * (docs/decisions/0266-unused-texts-of-the-catalogue.md). Any other text nothing uses is dead:
 * use it where the spec puts it, or remove it.
 */
const KEPT: Record<string, string> = {
  'jobForm.locationRequired': "The form asks for street, city and state, each with its own '<Field> is required'; the spec's single location field has no counterpart.",
  'jobForm.removeImageFailed': 'A photo is removed from the form before saving, in the browser: nothing can fail.',
  'jobs.mustBeLoggedInToPost': "Signed-out visitors never reach the job form: /post-job sends them to sign in first (the API's own answer is 'Authentication required').",
  'applications.loginToApply': 'Signed-out visitors are offered Sign In instead of Apply; the API answers 401 with its own text.',
  'applications.loginToMessage': 'Signed-out visitors never see a message box: the messaging pages send them to sign in.',
  'reviews.loginToReview': 'The review form shows on the job page of its two parties only, who are signed in.',
  'disputes.mustBeLoggedIn': 'The dispute pages and dialog are behind the sign-in guard.',
  'payments.invalidResponse': "The payment start's answer is typed end to end (shared/api.ts): a malformed answer is the API client's error, not this check.",
  'jobs.noJobsFound': "The board's empty states are the spec's more precise 'No jobs available at the moment.' and 'No jobs found matching your search.'.",
  'applications.jobDeclined': "A declined completion is shown with the poster's reason (MSG.applications' decline texts); the bare title has no place.",
};

/** The source files that may show a text: everything but the catalogue itself and the tests. */
function sources(): string {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'shared', 'functions', 'web/src', 'infra'], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && file !== 'shared/messages.ts' && existsSync(file));
  // The catalogue's own helpers (signInErrorText) read it on behalf of their callers.
  const catalogue = readFileSync('shared/messages.ts', 'utf8');
  return [...files.map((file) => readFileSync(file, 'utf8')), catalogue.slice(catalogue.indexOf('} as const;'))].join('\n');
}

/** Every text's path ('location.zipNotFound'); a list (signInErrors) counts as one text. */
function pathsOf(group: object, prefix: string[] = []): string[] {
  return Object.entries(group).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? pathsOf(value, [...prefix, key]) : [[...prefix, key].join('.')],
  );
}

/** Whether the code reads the path: `MSG.a.b`, or `m.b` after `const m = MSG.a`. */
function isUsed(code: string, path: string): boolean {
  const escaped = (text: string) => text.replaceAll('.', '\\.');
  if (new RegExp(`\\bMSG\\.${escaped(path)}\\b`).test(code)) return true;
  return [...code.matchAll(/\bconst (\w+) = MSG\.([\w.]+);/g)].some(([, alias, group]) => path.startsWith(`${group}.`) && new RegExp(`\\b${alias}\\.${escaped(path.slice(group!.length + 1))}\\b`).test(code));
}

describe('the text catalogue (shared/messages.ts)', () => {
  const code = sources();
  const paths = pathsOf(MSG);

  it('has every text used somewhere outside it, or kept on purpose with a reason', () => {
    expect(paths.filter((path) => !isUsed(code, path) && !(path in KEPT))).toEqual([]);
  });

  it('keeps on purpose only texts that exist and are indeed unused', () => {
    expect(Object.keys(KEPT).filter((path) => !paths.includes(path) || isUsed(code, path))).toEqual([]);
  });
});
