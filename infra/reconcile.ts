/**
 * `npm run reconcile`: compares the money ledger with Stripe and prints every difference by job
 * and amount (docs/deploy.md, "Reconciliation").
 *
 *   npm run reconcile                          against the running `npm run dev`
 *   npm run reconcile -- --stage <stage>       against a deployment, with its AWS credentials and region
 *   options: --since <ISO time>                start there instead of at the checkpoint (moves the checkpoint past old differences)
 *            --grace <seconds>                 leave differences about younger objects to the next run (default 0 here, 300 on the schedule)
 *
 * It invokes the reconciliation function itself (RECURRING_SCHEDULES.reconciliation): locally
 * through the local stack's Lambda Invoke API, in AWS the stage's deployed function, so a run by
 * hand reads, compares and stores the checkpoint exactly as the daily schedule does.
 * Exit 0 when ledger and Stripe agree, 1 on any difference, 2 when it could not run.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { InvokeCommand, LambdaClient, paginateListFunctions } from '@aws-sdk/client-lambda';
import { describeDifference, describeLoss, type ReconciliationInput, type ReconciliationResult } from '../functions/money/reconciliation.js';
import { pascalCase, stageNames } from './constructs/names.js';
import { DEFAULT_PORTS, LOCAL_CREDENTIALS, recurringScheduleName } from './local/stack.js';

const REPO_ROOT = resolve(import.meta.dirname, '..');
const DECLARATION = 'reconciliation';

const usage = 'Usage: npm run reconcile [-- --stage <stage>] [--since <ISO time>] [--grace <seconds>]';

/** The function in a deployment: CloudFormation names it after its stack and construct path (infra/stacks/api-stack.ts builds it as a RecurringSchedule). */
async function deployedFunctionName(lambda: LambdaClient, stage: string): Promise<string> {
  const prefix = `${stageNames(stage).stackName('Api')}-${pascalCase(DECLARATION)}Target`;
  const names: string[] = [];
  for await (const page of paginateListFunctions({ client: lambda }, {})) {
    names.push(...(page.Functions ?? []).flatMap(({ FunctionName }) => (FunctionName?.startsWith(prefix) ? [FunctionName] : [])));
  }
  if (names.length !== 1) throw new Error(`Found ${names.length} functions named ${prefix}*: is stage ${stage} deployed in this region?`);
  return names[0]!;
}

/** The client and function name of the running `npm run dev` (LOCAL_LAMBDA_PORT from .env, or the default). */
function localTarget(): { lambda: LambdaClient; functionName: string } {
  const envFile = resolve(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const endpoint = `http://127.0.0.1:${process.env.LOCAL_LAMBDA_PORT ?? DEFAULT_PORTS.lambda}`;
  return { lambda: new LambdaClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS }), functionName: recurringScheduleName(DECLARATION) };
}

/** Runs the reconciliation function once and answers its result. */
export async function invokeReconciliation(lambda: LambdaClient, functionName: string, input: ReconciliationInput): Promise<ReconciliationResult> {
  let answer;
  try {
    answer = await lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(input)) }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not invoke ${functionName} (${reason}): is \`npm run dev\` running (LOCAL_LAMBDA_PORT), or the stage deployed?`, { cause: error });
  }
  const payload: unknown = JSON.parse(Buffer.from(answer.Payload ?? []).toString('utf8') || 'null');
  if (answer.FunctionError) throw new Error(`${functionName} failed: ${(payload as { errorMessage?: string } | null)?.errorMessage ?? answer.FunctionError}`);
  return payload as ReconciliationResult;
}

export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { stage: { type: 'string' }, since: { type: 'string' }, grace: { type: 'string', default: '0' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const graceSeconds = Number(values.grace);
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0) throw new Error(`--grace must be a whole number of seconds.\n${usage}`);
  const input: ReconciliationInput = { graceSeconds, ...(values.since ? { since: new Date(values.since).toISOString() } : {}) };
  const target = values.stage === undefined ? localTarget() : { lambda: new LambdaClient({}), functionName: '' };
  const functionName = target.functionName || (await deployedFunctionName(target.lambda, values.stage!));

  const result = await invokeReconciliation(target.lambda, functionName, input);
  for (const difference of result.differences) console.log(describeDifference(difference));
  // Losses agree with Stripe (no difference), but someone should look at each: a worker's debt to collect, a chargeback to answer.
  for (const loss of result.losses ?? []) console.log(`Loss: ${describeLoss(loss)}`);
  const summary = `Compared ${result.stripeObjects} Stripe objects and ${result.movements} ledger movements from ${result.from} to ${result.checkedThrough}`;
  if (result.differences.length) {
    console.log(`${summary}: ${result.differences.length} difference${result.differences.length === 1 ? '' : 's'}.`);
    return 1;
  }
  console.log(`${summary}: the ledger and Stripe agree.`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    },
  );
}
