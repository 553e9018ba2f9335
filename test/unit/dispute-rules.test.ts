import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '../../shared/job-process.js';
import { mayDispute } from '../../shared/disputes.js';

const job = { posterId: 'poster', workerId: 'worker' };
const statusesWhere = (viewerId: string | null, withWorker = true) =>
  JOB_STATUSES.filter((status) => mayDispute({ ...job, ...(withWorker ? {} : { workerId: undefined }), status }, viewerId));

describe('who reaches the Dispute Center from a job (spec 2 §5)', () => {
  it('offers it to the worker on active or completed jobs, and to the poster on assigned, completed or paid jobs', () => {
    expect(statusesWhere('worker')).toEqual(['assigned', 'completed']);
    expect(statusesWhere('poster')).toEqual(['assigned', 'completed', 'paid']);
  });

  it('offers it to nobody else, nor to a poster whose job has no worker', () => {
    expect(statusesWhere('someone-else')).toEqual([]);
    expect(statusesWhere(null)).toEqual([]);
    expect(statusesWhere('poster', false)).toEqual([]);
  });
});
