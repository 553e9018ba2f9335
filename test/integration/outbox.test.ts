import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobSummary, Page } from '../../shared/api.js';
import { ENV, EVENT_SOURCE, JOB_EVENT } from '../../functions/routes.js';
import { OUTBOX_PREFIX } from '../../functions/table.js';
import type { OutboxItem } from '../../functions/lib/outbox.js';
import { api, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { jobForm } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';

describe('the transactional outbox', () => {
  const stack = useLocalStack();
  const busName = () => process.env[ENV.eventBusName]!;
  /** The relay's bus, as a change to its configuration would set it. */
  const relayBus = (name: string) => stack().functions.updateEnvironment('outboxRelay', { [ENV.eventBusName]: name });
  let poster: TestUser;
  let job: JobSummary;

  afterEach(() => relayBus(busName()));

  /** The outbox items of the test's table (a test table: scanning it is fine). */
  async function outbox(): Promise<OutboxItem[]> {
    const { Items = [] } = await tableClient(stack()).send(
      new ScanCommand({ TableName: stack().tableName, FilterExpression: 'begins_with(pk, :outbox)', ExpressionAttributeValues: { ':outbox': OUTBOX_PREFIX } }),
    );
    return Items as OutboxItem[];
  }

  const edit = (title: string, token = poster.idToken) => api<JobSummary>(stack(), 'PUT', `/jobs/${job.id}`, { token, body: { ...jobForm, images: [], title } });
  const found = async (word: string) => (await api<Page<JobSummary>>(stack(), 'GET', `/jobs?q=${word}`)).body.items.map((item) => item.title);

  it('writes a change and its event together, and a refused change writes no event', async () => {
    const [owner, intruder] = await Promise.all([createPoster(stack()), createPoster(stack())]);
    poster = owner!;
    job = await postPaidJob(stack(), poster, jobForm);
    await stack().events.idle();
    const before = await outbox();
    expect(before.filter((item) => item.detailType === JOB_EVENT.posted && item.detail.includes(job.id))).toHaveLength(1);

    expect((await edit('Paint a picket fence')).status).toBe(200);
    const added = (await outbox()).filter((item) => !before.some((old) => old.pk === item.pk));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ source: EVENT_SOURCE.jobs, detailType: JOB_EVENT.updated });
    expect(JSON.parse(added[0]!.detail)).toMatchObject({ change: 'edited', job: { id: job.id, title: 'Paint a picket fence' } });
    expect(added[0]!.expiresAt).toBeGreaterThan(Date.now() / 1000);

    expect((await edit('Not yours', intruder.idToken)).status).toBe(404);
    expect(await outbox()).toHaveLength(before.length + 1);
  });

  it('delivers an event the bus refused once the bus takes it, and the change stands meanwhile', async () => {
    await stack().events.idle();
    relayBus('no-such-bus');

    const edited = await edit('Paint a garden gazebo');
    expect(edited.status).toBe(200);
    expect(await stack().outboxRelay.drain()).toBe(0);
    expect(await found('gazebo')).toEqual([]);

    relayBus(busName());
    await stack().events.idle();
    expect(await found('gazebo')).toEqual(['Paint a garden gazebo']);
  });

  it('delivers what was written while the relay was down after it restarts, from where it stopped', async () => {
    await stack().events.idle();
    await stack().outboxRelay.stop();
    expect((await edit('Paint a wooden pergola')).status).toBe(200);
    await stack().events.idle();
    expect(await found('pergola')).toEqual([]);

    stack().outboxRelay.start();
    await stack().events.idle();
    expect(await found('pergola')).toEqual(['Paint a wooden pergola']);
  });
});
