import { CHANGES_KEPT_HOURS, readSearchChanges, readSearchDocuments, type SearchEntry, type StoredSearchDocument } from './search-documents.js';
import { JobSearchIndex } from './search-engine.js';

/**
 * The open jobs as one running search function holds them: the engine's index and each job's
 * entry, read whole when the function starts and kept current by the changes written since
 * (functions/search/search-documents.ts). Each search first reads those changes: one small
 * Query, so what it finds is as current as the documents.
 */

/**
 * Changes are read again this far back: a document stamped just before a read but visible in its
 * index only after it (GSI1 is eventually consistent, a write can be slow) is then still taken
 * in. Changes already applied are skipped by their stamps.
 */
const CHANGE_OVERLAP_MS = 10_000;

export class OpenJobs {
  readonly index = new JobSearchIndex();
  private readonly entries = new Map<string, SearchEntry>();
  /** Each job's last change applied (also of a job gone): an older one read late changes nothing. */
  private readonly appliedAt = new Map<string, string>();
  /** When the last read began: the next reads the changes since (less the overlap). */
  private readSince: string;

  constructor(documents: readonly StoredSearchDocument[], readAt: Date) {
    for (const document of documents) this.apply(document);
    this.readSince = readAt.toISOString();
  }

  entry(jobId: string): SearchEntry | undefined {
    return this.entries.get(jobId);
  }

  /** Whether its changes can still be read: a function idle longer reads every document again. */
  isCurrentAt(now: Date): boolean {
    return now.getTime() - Date.parse(this.readSince) < CHANGES_KEPT_HOURS * 60 * 60 * 1000;
  }

  apply(document: StoredSearchDocument): void {
    const applied = this.appliedAt.get(document.jobId);
    if (applied !== undefined && applied >= document.changedAt) return;
    this.appliedAt.set(document.jobId, document.changedAt);
    if (document.entry) {
      this.index.put(document.entry.document);
      this.entries.set(document.jobId, document.entry);
    } else {
      this.index.remove(document.jobId);
      this.entries.delete(document.jobId);
    }
  }

  async readChanges(now: Date): Promise<void> {
    const since = new Date(Date.parse(this.readSince) - CHANGE_OVERLAP_MS).toISOString();
    for (const change of await readSearchChanges(since, now)) this.apply(change);
    this.readSince = now.toISOString();
  }
}

let openJobs: OpenJobs | undefined;
let reading: Promise<OpenJobs> | undefined;

/**
 * The open jobs, current as of now. Searches that arrive while a read runs share it (a function
 * may serve several at once locally); a failed read changes nothing, so the next search tries again.
 */
export function currentOpenJobs(now = new Date()): Promise<OpenJobs> {
  reading ??= (async () => {
    try {
      if (!openJobs || !openJobs.isCurrentAt(now)) openJobs = new OpenJobs(await readSearchDocuments(), now);
      else await openJobs.readChanges(now);
      return openJobs;
    } finally {
      reading = undefined;
    }
  })();
  return reading;
}
