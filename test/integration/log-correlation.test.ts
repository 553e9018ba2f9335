import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOB_EVENT } from '../../functions/routes.js';
import { OUTBOX_PREFIX } from '../../functions/table.js';
import { jobTopic } from '../../shared/live.js';
import { CORRELATION_ID } from '../../functions/lib/logger.js';
import type { OutboxItem } from '../../functions/lib/outbox.js';
import { api, tableClient, useLocalStack } from '../support/local-stack.js';
import { jobForm } from '../support/job-lifecycle.js';
import { createPoster, postPaidJob } from '../support/payments.js';
import { LiveSocket } from '../support/live-socket.js';

describe('log correlation', () => {
  const stack = useLocalStack();

  afterEach(() => {
    vi.restoreAllMocks();
    stack().functions.updateEveryEnvironment({ LOG_LEVEL: undefined });
  });

  it("carries a request's correlation id through the outbox, the bus and the queue into every consumer's lines", async () => {
    const poster = await createPoster(stack());
    const job = await postPaidJob(stack(), poster, jobForm);
    await stack().events.idle();
    await stack().queues.idle();
    // One page shows the job: its shard is the one the fan-out pushes to.
    const page = await LiveSocket.open(stack().urls.webSocket);
    await page.subscribe([jobTopic(job.id)]);

    // Each function's lines reach this process's output, as Lambda's reach its log group.
    stack().functions.updateEveryEnvironment({ LOG_LEVEL: 'info' });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const title = 'Paint a correlated fence';
    expect((await api(stack(), 'PUT', `/jobs/${job.id}`, { token: poster.idToken, body: { ...jobForm, images: [], title } })).status).toBe(200);
    await stack().outboxRelay.drain();
    await stack().events.idle();
    await stack().queues.idle();
    vi.restoreAllMocks();

    // The edit's event carries the id of the request that made it (API Gateway's request id).
    const { Items = [] } = await tableClient(stack()).send(
      new ScanCommand({ TableName: stack().tableName, FilterExpression: 'begins_with(pk, :outbox)', ExpressionAttributeValues: { ':outbox': OUTBOX_PREFIX } }),
    );
    const [edited] = (Items as OutboxItem[]).filter((item) => item.detailType === JOB_EVENT.updated && item.detail.includes(title));
    const correlationId = (JSON.parse(edited!.detail) as Record<string, unknown>)[CORRELATION_ID.detailKey];
    expect(correlationId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));

    const entries = lines.flatMap((line) => line.split('\n')).flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const correlated = entries.filter((entry) => entry.correlation_id === correlationId).map((entry) => entry.message);
    // Two rules' consumers (through the bus) and the job feed's shard consumer (through the queue).
    expect(correlated).toEqual(expect.arrayContaining(['search document synced', 'job feed fanned out']));
    expect(correlated.filter((message) => message === 'job feed shard pushed')).toHaveLength(1);
    expect(page.jobPushes().map((push) => push.type === 'job.updated' && push.job.title)).toEqual([title]);
    await page.close();
  });
});
