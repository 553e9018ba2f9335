import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { QUEUE_CONSUMERS, type QueueConsumer } from '../../functions/routes.js';
import { deadLetterQueuePrefix, stageNames, DEFAULT_STAGE } from '../constructs/names.js';
import { DEAD_LETTER_QUEUES } from '../dead-letter-queues.js';
import { listen, readBody, sendJson, type Listening } from './http-util.js';
import type { FaultSwitch } from './faults.js';
import { invoke } from './lambda-runtime.js';

export interface MessageAttribute {
  DataType: string;
  StringValue?: string;
}

interface SendEntry {
  Id?: string;
  MessageBody: string;
  /** Hidden from its consumer this long after sending (SQS allows up to 900). */
  DelaySeconds?: number;
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
  /** Resolves once every message sent so far has been consumed (tests await it); held-back ones (delays over IN_FLIGHT_DELAY_SECONDS) only once visible. */
  idle(): Promise<void>;
  delayedCount(): number;
  /** Puts a message in the dead-letter queue of a declaration (an event rule's, as EventBridge and Lambda do). */
  deadLetter(declarationName: string, body: string, attributes?: Record<string, MessageAttribute>): void;
  /** The ARN of a declaration's dead-letter queue (DEAD_LETTER_QUEUES). */
  deadLetterQueueArn(declarationName: string): string;
  /** Sends to the dead-letter queue of this ARN, as a service with sqs:SendMessage on it does; false when no such queue exists. */
  sendToDeadLetterQueue(queueArn: string, body: string, attributes?: Record<string, MessageAttribute>): boolean;
}

interface StoredMessage {
  MessageId: string;
  Body: string;
  MessageAttributes?: Record<string, MessageAttribute>;
  /** Set while a receiver holds the message (until it deletes it). */
  ReceiptHandle?: string;
}

/**
 * The dead-letter queue's name, as CloudFormation names the CDK app's (the stack's name and
 * the queue's logical id, then a suffix of its own): the redrive script finds either by prefix.
 */
const deadLetterQueueName = (declarationName: string) => {
  const source = DEAD_LETTER_QUEUES[declarationName];
  if (!source) throw new Error(`No dead-letter queue is declared for ${declarationName} (infra/dead-letter-queues.ts)`);
  return `${deadLetterQueuePrefix(stageNames(DEFAULT_STAGE).stackName(source.stack), source.constructId)}-local`;
};

/** Like SQS with a redrive policy: a message is received up to 3 times, then moved to the dead-letter queue. */
/** Delays up to this many seconds count as in flight (idle() waits for them); longer ones are held back. */
const IN_FLIGHT_DELAY_SECONDS = 5;
const RETRY_DELAYS_MS = [200, 1000];
const ACCOUNT = '000000000000';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Local SQS: accepts SendMessage and SendMessageBatch from `@aws-sdk/client-sqs` on the
 * queues declared in QUEUE_CONSUMERS and delivers each message, asynchronously, to the
 * declared consumer as the Lambda SQS event source would (a message reported in
 * batchItemFailures, or a throw, is delivered again).
 */
export async function serveQueues(options: {
  port: number;
  consumers?: Record<string, QueueConsumer>;
  deadLetterSources?: readonly string[];
  /** `lambda error|delay` fails the consumers' invocations. */
  faults?: FaultSwitch;
}): Promise<LocalQueues> {
  const { faults } = options;
  const consumers: Record<string, QueueConsumer> = options.consumers ?? QUEUE_CONSUMERS;
  const inFlight = new Set<Promise<void>>();
  // Dead-letter queues: one per consumed queue (its redrive policy), one per other declaration of DEAD_LETTER_QUEUES.
  const deadLetterSources = [
    ...Object.keys(consumers),
    ...(options.deadLetterSources ?? Object.keys(DEAD_LETTER_QUEUES).filter((name) => DEAD_LETTER_QUEUES[name]!.kind !== 'queue')),
  ];
  const stored = new Map<string, StoredMessage[]>(deadLetterSources.map((name) => [deadLetterQueueName(name), []]));
  /** The consumed queue whose dead-letter queue this is (StartMessageMoveTask's destination). */
  const sourceOf = new Map(Object.keys(consumers).map((name) => [deadLetterQueueName(name), name]));
  const store = (queueName: string, message: Omit<StoredMessage, 'MessageId'>) => stored.get(queueName)!.push({ MessageId: randomUUID(), ...message });

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
      const run = () => invoke(`queue-${name}`, consumer, { Records: [record] } satisfies SQSEvent) as Promise<SQSBatchResponse | undefined>;
      const failed = await (faults ? faults.invokeConsumer(`queue-${name}`, run) : run()).then(
        (response) => (response?.batchItemFailures ?? []).length > 0,
        (error: unknown) => {
          console.error(`[queues] ${name} threw`, error);
          return true;
        },
      );
      if (!failed) return;
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        console.error(`[queues] ${name} failed on message ${messageId}, moved to its dead-letter queue`);
        store(deadLetterQueueName(name), { Body: body, MessageAttributes });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };

  /**
   * Messages held back for longer than a moment (the mailer's quiet hours), not yet visible: not
   * in flight (idle() does not wait for them); dropped on close.
   */
  const delayed = new Set<NodeJS.Timeout>();
  const enqueue = (name: string, consumer: QueueConsumer, entry: SendEntry) => {
    const delayMs = (entry.DelaySeconds ?? 0) * 1000;
    if (delayMs > IN_FLIGHT_DELAY_SECONDS * 1000) {
      const timer = setTimeout(() => {
        delayed.delete(timer);
        enqueue(name, consumer, { ...entry, DelaySeconds: undefined });
      }, delayMs);
      delayed.add(timer);
      return;
    }
    // A short delay (the job feed's coalescing window) is part of delivering the change: in flight.
    const delivery = new Promise<void>((resolve) => (delayMs ? setTimeout(resolve, delayMs) : setImmediate(resolve))).then(() => deliver(name, consumer, entry));
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };

  const server = createServer(async (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    const input = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Partial<SendEntry> &
      Partial<Record<'QueueUrl' | 'QueueName' | 'QueueNamePrefix' | 'SourceArn' | 'ReceiptHandle', string>> & { Entries?: (SendEntry & { ReceiptHandle?: string })[]; MaxNumberOfMessages?: number };
    const reply = (body: object) => sendJson(res, 200, body, { 'content-type': 'application/x-amz-json-1.0' });
    const urlOf = (queueName: string) => `${listening.url}/${ACCOUNT}/${queueName}`;
    const allNames = [...Object.keys(consumers), ...stored.keys()];
    if (target === 'AmazonSQS.ListQueues') return reply({ QueueUrls: allNames.filter((queueName) => queueName.startsWith(input.QueueNamePrefix ?? '')).map(urlOf) });
    if (target === 'AmazonSQS.StartMessageMoveTask') {
      const deadLetter = (input.SourceArn ?? '').split(':').pop()!;
      const source = sourceOf.get(deadLetter);
      if (!source) return sendJson(res, 400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: `${input.SourceArn} is not the dead-letter queue of a queue` });
      // As SQS moves them: back to the queue they came from, where its consumer receives them again.
      for (const message of stored.get(deadLetter)!.splice(0)) enqueue(source, consumers[source]!, { MessageBody: message.Body, MessageAttributes: message.MessageAttributes });
      return reply({ TaskHandle: randomUUID() });
    }
    const name = decodeURIComponent(new URL(input.QueueUrl ?? '/', 'http://localhost').pathname.split('/').pop() ?? '');
    const deadLetters = stored.get(name);
    if (deadLetters) return answerDeadLetterQueue(target, name, deadLetters, input, reply, res);
    const consumer = (consumers as Record<string, QueueConsumer>)[name];
    if (!consumer) return sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `No queue ${input.QueueUrl}` });
    if (target === 'AmazonSQS.SendMessage' && input.MessageBody !== undefined) {
      enqueue(name, consumer, { MessageBody: input.MessageBody, MessageAttributes: input.MessageAttributes, DelaySeconds: input.DelaySeconds });
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

  /** A dead-letter queue holds messages until someone receives and deletes them (no consumer). */
  function answerDeadLetterQueue(
    target: string,
    name: string,
    messages: StoredMessage[],
    input: Partial<SendEntry> & { Entries?: (SendEntry & { ReceiptHandle?: string })[]; MaxNumberOfMessages?: number; ReceiptHandle?: string },
    reply: (body: object) => void,
    res: Parameters<typeof sendJson>[0],
  ) {
    switch (target) {
      case 'AmazonSQS.GetQueueAttributes':
        return reply({ Attributes: { QueueArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`, ApproximateNumberOfMessages: String(messages.length) } });
      case 'AmazonSQS.SendMessage':
        store(name, { Body: input.MessageBody!, MessageAttributes: input.MessageAttributes });
        return reply({ MessageId: randomUUID(), MD5OfMessageBody: md5(input.MessageBody!) });
      case 'AmazonSQS.ReceiveMessage': {
        const received = messages.filter((message) => !message.ReceiptHandle).slice(0, input.MaxNumberOfMessages ?? 1);
        for (const message of received) message.ReceiptHandle = randomUUID();
        return reply({ Messages: received.map((message) => ({ ...message, MD5OfBody: md5(message.Body) })) });
      }
      case 'AmazonSQS.DeleteMessage':
      case 'AmazonSQS.DeleteMessageBatch': {
        const entries = input.Entries ?? [{ Id: '0', ReceiptHandle: input.ReceiptHandle, MessageBody: '' }];
        for (const entry of entries) {
          const index = messages.findIndex((message) => message.ReceiptHandle === entry.ReceiptHandle);
          if (index >= 0) messages.splice(index, 1);
        }
        return reply({ Successful: entries.map((entry) => ({ Id: entry.Id })), Failed: [] });
      }
      default:
        return sendJson(res, 400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: target });
    }
  }

  const listening = await listen(server, options.port);
  return {
    ...listening,
    close: async () => {
      for (const timer of delayed) clearTimeout(timer);
      delayed.clear();
      await listening.close();
    },
    /** Messages sent with a delay that are not visible yet (the mailer's emails held for quiet hours). */
    delayedCount: () => delayed.size,
    deadLetter: (declarationName, body, attributes) => store(deadLetterQueueName(declarationName), { Body: body, MessageAttributes: attributes }),
    deadLetterQueueArn: (declarationName) => `arn:aws:sqs:us-east-1:${ACCOUNT}:${deadLetterQueueName(declarationName)}`,
    sendToDeadLetterQueue: (queueArn, body, attributes) => {
      const [, , service, region, account, name] = queueArn.split(':');
      if (service !== 'sqs' || region !== 'us-east-1' || account !== ACCOUNT || !name || !stored.has(name)) return false;
      store(name, { Body: body, MessageAttributes: attributes });
      return true;
    },
    queueUrls: Object.fromEntries(Object.keys(consumers).map((name) => [name, `${listening.url}/${ACCOUNT}/${name}`])),
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}
