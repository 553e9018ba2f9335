import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The decision records (docs/decisions/README.md): one file per decision, numbered in the order
 * taken, every one in the index, so a newcomer finds why a rule is as it is.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const recordsDir = join(repoRoot, 'docs/decisions');
const RECORD_NAME = /^\d{4}-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
/** The one-file log the records replaced; spelt in parts so this file does not name it. */
const RETIRED_LOG = ['docs', 'decisions.md'].join('/');

const recordFiles = readdirSync(recordsDir)
  .filter((file) => file !== 'README.md')
  .sort();
const index = readFileSync(join(recordsDir, 'README.md'), 'utf8');
const numberOf = (file: string) => Number(file.slice(0, 4));

/** The repository's files (tracked, or new and not ignored), without installed or built ones. */
function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !/(^|\/)node_modules\//.test(file) && !file.startsWith('web/dist/') && existsSync(join(repoRoot, file)));
}

/** The relative targets of a Markdown text's links (`[text](target)`), anchors and web links left out. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
}

describe('decision records (docs/decisions/)', () => {
  it('are named NNNN-kebab-title.md', () => {
    expect(recordFiles.length).toBeGreaterThan(0);
    expect(recordFiles.filter((file) => !RECORD_NAME.test(file))).toEqual([]);
  });

  it('are numbered from 0001 with no number twice and none skipped', () => {
    const numbers = recordFiles.map(numberOf);
    expect(numbers).toEqual(numbers.map((_, position) => position + 1));
  });

  it("each open with a '# NNNN. Title' line of their own number and a status", () => {
    for (const file of recordFiles) {
      const [title, , status] = readFileSync(join(recordsDir, file), 'utf8').split('\n');
      expect(title, file).toMatch(new RegExp(`^# ${file.slice(0, 4)}\\. \\S`));
      expect(status, file).toMatch(/^Status: (accepted|superseded by )/);
    }
  });

  it('are each listed in the index, whose every link resolves', () => {
    const linked = relativeLinks(index);
    expect(recordFiles.filter((file) => !linked.includes(file))).toEqual([]);
    expect(linked.filter((target) => !existsSync(join(recordsDir, target)))).toEqual([]);
  });

  it('link only to records and files that exist', () => {
    for (const file of recordFiles) {
      const missing = relativeLinks(readFileSync(join(recordsDir, file), 'utf8')).filter((target) => !existsSync(join(recordsDir, target)));
      expect(missing, file).toEqual([]);
    }
  });

  it('are what the repository points at: no file names the retired one-file log, and every record named exists', () => {
    const namingRetired: string[] = [];
    const missingRecords: string[] = [];
    for (const file of repositoryFiles()) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      if (text.includes(RETIRED_LOG)) namingRetired.push(file);
      for (const [path] of text.matchAll(/docs\/decisions\/\d{4}-[a-z0-9-]*[a-z0-9]\.md/g)) {
        if (!existsSync(join(repoRoot, path))) missingRecords.push(`${file}: ${path}`);
      }
    }
    expect(namingRetired).toEqual([]);
    expect(missingRecords).toEqual([]);
  });
});
