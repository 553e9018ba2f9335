import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import { DEFAULT_STAGE, deadLetterQueuePrefix, stageNames } from './constructs/names.js';
import { DEAD_LETTER_QUEUES } from './dead-letter-queues.js';

/** How long a message taken for redrive stays hidden: a failed one is back in the queue after it. */
const VISIBILITY_TIMEOUT_SECONDS = 60;
/** At most this many messages per ReceiveMessage. */
const RECEIVE_LIMIT = 10;

export interface RedriveOptions {
  /** The stage whose dead-letter queue it is. @default "prod" */
  readonly stage?: string;
  readonly sqs: SQSClient;
  readonly lambda: LambdaClient;
}

export interface RedriveResult {
  /** Messages the failed consumer took this time (deleted from the dead-letter queue). */
  readonly redriven: number;
  /** Messages it failed on again (left in the dead-letter queue). */
  readonly failed: number;
  /** For a queue's dead-letter queue: SQS moves the messages back to the queue itself. */
  readonly movedToSource: boolean;
}

const declarationNames = () => Object.keys(DEAD_LETTER_QUEUES).join(', ');

async function deadLetterQueueUrl(sqs: SQSClient, stage: string, declarationName: string): Promise<string> {
  const source = DEAD_LETTER_QUEUES[declarationName]!;
  const prefix = deadLetterQueuePrefix(stageNames(stage).stackName(source.stack), source.constructId);
  const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: prefix }));
  if (QueueUrls.length !== 1) throw new Error(`Found ${QueueUrls.length} queues named ${prefix}*: is stage ${stage} deployed in this region?`);
  return QueueUrls[0]!;
}

/**
 * The function that failed on a message of an invocations dead-letter queue, and what to hand
 * it again. Two kinds arrive there: Lambda's on-failure record when the function kept failing
 * (the event is its requestPayload), and EventBridge's or Scheduler's own when it could not
 * invoke the function (the event or schedule input is the body; the target is an attribute).
 */
function failedInvocation(message: Message): { functionName: string; payload: string } {
  const body = JSON.parse(message.Body ?? '{}') as { requestContext?: { functionArn?: string }; requestPayload?: unknown };
  const functionArn = body.requestContext?.functionArn ?? message.MessageAttributes?.TARGET_ARN?.StringValue;
  if (!functionArn) throw new Error(`Message ${message.MessageId} names no function: neither a Lambda failure record nor an EventBridge dead letter.`);
  // arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]
  const functionName = functionArn.split(':')[6]!;
  return { functionName, payload: JSON.stringify(body.requestContext ? body.requestPayload : body) };
}

/**
 * Re-delivers the messages of one declaration's dead-letter queue (DEAD_LETTER_QUEUES) to the
 * one consumer that failed on them, never to the other rules of the bus: a rule's events, a
 * schedule's inputs, a topic's notifications go straight to its own function (invoked one at a
 * time, and deleted once it succeeds), a queue's messages are moved back to the queue by SQS.
 * The outbox relay's is refused: it holds pointers to stream records that expired, not events.
 */
export async function redrive(declarationName: string, options: RedriveOptions): Promise<RedriveResult> {
  const stage = options.stage ?? DEFAULT_STAGE;
  const { sqs, lambda } = options;
  const source = Object.hasOwn(DEAD_LETTER_QUEUES, declarationName) ? DEAD_LETTER_QUEUES[declarationName] : undefined;
  if (source?.kind === 'stream') {
    throw new Error(
      `${declarationName}'s dead-letter queue holds only the positions of stream records that expired after 24 hours of retries: ` +
        'their events cannot be re-delivered from it (docs/deploy.md, "Dead letters").',
    );
  }
  if (!source) {
    throw new Error(`No dead-letter queue for "${declarationName}": one of ${declarationNames()}.`);
  }
  const queueUrl = await deadLetterQueueUrl(sqs, stage, declarationName);

  if (source.kind === 'queue') {
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
    await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: Attributes!.QueueArn! }));
    return { redriven: 0, failed: 0, movedToSource: true };
  }

  let redriven = 0;
  let failed = 0;
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: RECEIVE_LIMIT, VisibilityTimeout: VISIBILITY_TIMEOUT_SECONDS, MessageAttributeNames: ['All'] }),
    );
    if (!Messages.length) return { redriven, failed, movedToSource: false };
    for (const message of Messages) {
      const { functionName, payload } = failedInvocation(message);
      const { FunctionError } = await lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(payload) }));
      if (FunctionError) {
        failed++;
        continue;
      }
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      redriven++;
    }
  }
}

/** `npm run redrive -- <declaration> [--stage <stage>]`, with the AWS credentials and region of the deployment. */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { stage: { type: 'string', default: DEFAULT_STAGE } } });
  const [declarationName] = positionals;
  if (!declarationName) throw new Error(`Usage: npm run redrive -- <declaration> [--stage <stage>], the declaration one of ${declarationNames()}.`);
  const result = await redrive(declarationName, { stage: values.stage, sqs: new SQSClient({}), lambda: new LambdaClient({}) });
  if (result.movedToSource) console.log(`SQS is moving ${declarationName}'s dead letters back to its queue.`);
  else console.log(`${declarationName}: ${result.redriven} re-delivered, ${result.failed} failed again (back in the dead-letter queue in ${VISIBILITY_TIMEOUT_SECONDS} s).`);
  if (result.failed) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
