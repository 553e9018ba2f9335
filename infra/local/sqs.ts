import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { QUEUE_CONSUMERS, type QueueConsumer } from '../../functions/routes.js';
import { listen, readBody, sendJson, type Listening } from './http-util.js';
import { invoke } from './lambda-runtime.js';

interface MessageAttribute {
  DataType: string;
  StringValue?: string;
}

interface SendEntry {
  Id?: string;
  MessageBody: string;
  MessageAttributes?: Record<string, MessageAttribute>;
}

/** Message attributes as the Lambda SQS event source hands them over. */
const lambdaMessageAttributes = (attributes: Record<string, MessageAttribute> = {}) =>
  Object.fromEntries(
    Object.entries(attributes).map(([name, attribute]) => [name, { dataType: attribute.DataType, stringValue: attribute.StringValue, stringListValues: [], binaryListValues: [] }]),
  );

export interface LocalQueues extends Listening {
  /** The URL of each declared queue, by its name in QUEUE_CONSUMERS. */
  queueUrls: Readonly<Record<string, string>>;
  /** Resolves once every message sent so far has been consumed (tests await it). */
  idle(): Promise<void>;
}

/** Like SQS with a redrive policy: a message is received up to 3 times, then dropped (logged). */
const RETRY_DELAYS_MS = [200, 1000];
const ACCOUNT = '000000000000';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Local SQS: accepts SendMessage and SendMessageBatch from `@aws-sdk/client-sqs` on the
 * queues declared in QUEUE_CONSUMERS and delivers each message, asynchronously, to the
 * declared consumer as the Lambda SQS event source would (a message reported in
 * batchItemFailures, or a throw, is delivered again).
 */
export async function serveQueues(options: { port: number; consumers?: Record<string, QueueConsumer> }): Promise<LocalQueues> {
  const consumers = options.consumers ?? QUEUE_CONSUMERS;
  const inFlight = new Set<Promise<void>>();

  const deliver = async (name: string, consumer: QueueConsumer, { MessageBody: body, MessageAttributes }: SendEntry) => {
    const messageId = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const record = {
        messageId,
        receiptHandle: randomUUID(),
        body,
        attributes: { ApproximateReceiveCount: String(attempt + 1) },
        messageAttributes: lambdaMessageAttributes(MessageAttributes),
        md5OfBody: md5(body),
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`,
        awsRegion: 'us-east-1',
      } as unknown as SQSRecord;
      const failed = await (invoke(`queue-${name}`, consumer, { Records: [record] } satisfies SQSEvent) as Promise<SQSBatchResponse | undefined>).then(
        (response) => (response?.batchItemFailures ?? []).length > 0,
        (error: unknown) => {
          console.error(`[queues] ${name} threw`, error);
          return true;
        },
      );
      if (!failed) return;
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) return console.error(`[queues] ${name} failed on message ${messageId}, giving up`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  const enqueue = (name: string, consumer: QueueConsumer, entry: SendEntry) => {
    const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => deliver(name, consumer, entry));
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };

  const server = createServer(async (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const input = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Partial<SendEntry> & { QueueUrl?: string; Entries?: SendEntry[] };
    const name = decodeURIComponent(new URL(input.QueueUrl ?? '/', 'http://localhost').pathname.split('/').pop() ?? '');
    const consumer = (consumers as Record<string, QueueConsumer>)[name];
    const reply = (body: object) => sendJson(res, 200, body, { 'content-type': 'application/x-amz-json-1.0' });
    if (!consumer) return sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `No queue ${input.QueueUrl}` });
    if (target === 'AmazonSQS.SendMessage' && input.MessageBody !== undefined) {
      enqueue(name, consumer, { MessageBody: input.MessageBody, MessageAttributes: input.MessageAttributes });
      return reply({ MessageId: randomUUID(), MD5OfMessageBody: md5(input.MessageBody) });
    }
    if (target === 'AmazonSQS.SendMessageBatch' && input.Entries) {
      for (const entry of input.Entries) enqueue(name, consumer, entry);
      return reply({
        Successful: input.Entries.map((entry) => ({ Id: entry.Id, MessageId: randomUUID(), MD5OfMessageBody: md5(entry.MessageBody) })),
        Failed: [],
      });
    }
    sendJson(res, 400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: target });
  });

  const listening = await listen(server, options.port);
  return {
    ...listening,
    queueUrls: Object.fromEntries(Object.keys(consumers).map((name) => [name, `${listening.url}/${ACCOUNT}/${name}`])),
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}
