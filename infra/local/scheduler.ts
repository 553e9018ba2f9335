import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { atExpressionTime } from '../../functions/lib/scheduler.js';
import { SCHEDULE_RETRY_POLICY, type FunctionDeclaration } from '../../functions/routes.js';
import { SCHEDULER_PRINCIPAL, policyAllows, scheduleGroupArn, type RoleDocuments } from '../scheduler-roles.js';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';
import { invoke, onFailureRecord } from './lambda-runtime.js';
import type { MessageAttribute } from './sqs.js';

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
/** Like Lambda's asynchronous invocation (2 retries), a target that throws is tried again: 3 tries in all. */
const RETRY_DELAYS_MS = [500, 2000];
/** setTimeout's longest delay; a schedule further ahead is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The local function name of a schedule target (the last part of its ARN). */
export const scheduleTargetName = (name: string) => `schedule-${name}`;
export const localFunctionArn = (functionName: string) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName}`;

/** A schedule's target as CreateSchedule takes it (a Lambda function's). */
export interface ScheduleTarget {
  Arn: string;
  RoleArn: string;
  Input?: string;
  DeadLetterConfig?: { Arn?: string };
  RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
}

/** A schedule's run that AWS would not have let reach its target, and what became of it. */
export interface RefusedInvocation {
  schedule: string;
  group: string;
  /** Why: the role's trust, the target's ARN, or the role's permission to invoke it. */
  reason: string;
  /** Sent to the schedule's dead-letter queue, or dropped (no queue, or the role may not send to it, or cannot be assumed). */
  outcome: 'dead-lettered' | 'dropped';
}

/** A schedule as GetSchedule answers it (dates as epoch seconds, the REST protocol's default). */
interface StoredSchedule {
  Arn: string;
  Name: string;
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  State: string;
  ActionAfterCompletion?: string;
  FlexibleTimeWindow?: unknown;
  Target: ScheduleTarget;
  CreationDate: number;
  LastModificationDate: number;
}

/** A schedule group as GetScheduleGroup answers it. */
interface StoredScheduleGroup {
  Arn: string;
  Name: string;
  State: 'ACTIVE';
  CreationDate: number;
  LastModificationDate: number;
}

/** How many of the schedules created last `created()` remembers: enough for a test to find its own, bounded for a long `npm run dev`. */
export const CREATED_SCHEDULES_KEPT = 1_000;

/** ListSchedules' largest page (its MaxResults' upper bound). */
const LIST_SCHEDULES_MAX_RESULTS = 100;

export interface LocalScheduler extends Listening {
  /** The schedules that have not fired or been deleted (tests read them). */
  schedules(): StoredSchedule[];
  /**
   * The last CREATED_SCHEDULES_KEPT schedules created, as created, fired and deleted or not: a
   * test on a loaded machine may look only after the first of them has run (tests read them).
   */
  created(): readonly StoredSchedule[];
  /** Every run refused so far, as AWS would have refused it (tests read them). */
  refusals(): readonly RefusedInvocation[];
  /** Runs a schedule of `group` now, as a recurring schedule's run: the same checks and dead letters as a one-time one. */
  run(name: string, group: string, target: ScheduleTarget): Promise<void>;
  /** Resolves once every invocation started so far has finished. */
  idle(): Promise<void>;
}

/** A one-time schedule's time: `at()` in UTC, the only kind our code creates (functions/lib/scheduler.ts). */
const atTime = (expression: string, timezone = 'UTC'): number | undefined => (timezone === 'UTC' ? atExpressionTime(expression) : undefined);

const error = (type: string, status: number, message: string) => ({ type, status, message });

/** CreateSchedule's own checks of a target's dead-letter queue and retry policy (the API reference's constraints). */
function targetValidation(target: ScheduleTarget): string | undefined {
  const queueArn = target.DeadLetterConfig?.Arn;
  if (target.DeadLetterConfig && !/^arn:aws(-[a-z]+)?:sqs:[a-z0-9-]+:\d{12}:[a-zA-Z0-9_-]+$/.test(queueArn ?? '')) {
    return `DeadLetterConfig.Arn must be an SQS queue's ARN: ${String(queueArn)}`;
  }
  const { MaximumRetryAttempts: attempts, MaximumEventAgeInSeconds: age } = target.RetryPolicy ?? {};
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 0 && attempts <= SCHEDULE_RETRY_POLICY.maximumRetryAttempts)) {
    return `RetryPolicy.MaximumRetryAttempts must be 0 to ${SCHEDULE_RETRY_POLICY.maximumRetryAttempts}: ${attempts}`;
  }
  if (age !== undefined && !(Number.isInteger(age) && age >= 60 && age <= SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds)) {
    return `RetryPolicy.MaximumEventAgeInSeconds must be 60 to ${SCHEDULE_RETRY_POLICY.maximumEventAgeSeconds}: ${age}`;
  }
  return undefined;
}

/**
 * A local EventBridge Scheduler for one-time `at()` schedules: CreateSchedule, GetSchedule,
 * DeleteSchedule and ListSchedules, and CreateScheduleGroup, GetScheduleGroup and
 * DeleteScheduleGroup, on the service's REST wire protocol (so `@aws-sdk/client-scheduler` talks
 * to it with only its endpoint changed), firing each schedule's Lambda target, one of `targets`
 * by its function name, with the schedule's input at its time on this machine's clock. A
 * schedule is made only in a group that exists (`groups` and `default` at the start, as the CDK
 * app makes them); deleting a group deletes its schedules, as Scheduler does. Schedules are kept
 * in `stateFile`, so a restart fires those that came due while it was down.
 *
 * As strict as AWS about who may run what: a run assumes the schedule's execution role (one of
 * `roles`) only when its trust policy allows scheduler.amazonaws.com with the schedule group's
 * ARN as aws:SourceArn and the account as aws:SourceAccount, and invokes the target only when
 * it is a function of this account and region that the role may invoke. A refused invocation
 * goes to the schedule's dead-letter queue with Scheduler's message attributes (the role must
 * be allowed to send there), or is dropped; a target that keeps throwing ends, as Lambda's
 * asynchronous invocation does, in its function's on-failure destination (`onFailure`).
 */
export async function serveScheduler(options: {
  port: number;
  /** Function name (the end of the target ARN) -> its declaration. */
  targets: Record<string, FunctionDeclaration>;
  /** The execution roles IAM holds, by ARN. */
  roles: Readonly<Record<string, RoleDocuments>>;
  /** SQS: sends to the queue of this ARN as the role would; false when there is none. */
  sendToQueue: (queueArn: string, body: string, attributes?: Record<string, MessageAttribute>) => boolean;
  /** Each target function's on-failure destination (a queue ARN), as its asynchronous invocation configuration says. */
  onFailure: Readonly<Record<string, string>>;
  /** The schedule groups that exist from the start (the deploy's); `default` always does. */
  groups?: readonly string[];
  stateFile?: string;
}): Promise<LocalScheduler> {
  const schedules = new Map<string, StoredSchedule>();
  const groups = new Map<string, StoredScheduleGroup>();
  const addGroup = (name: string) => {
    const now = Math.floor(Date.now() / 1000);
    const group: StoredScheduleGroup = { Arn: scheduleGroupArn('aws', REGION, ACCOUNT, name), Name: name, State: 'ACTIVE', CreationDate: now, LastModificationDate: now };
    groups.set(name, group);
    return group;
  };
  for (const name of ['default', ...(options.groups ?? [])]) addGroup(name);
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const refusals: RefusedInvocation[] = [];
  const created: StoredSchedule[] = [];
  const key = (group: string, name: string) => `${group}/${name}`;
  const save = () => options.stateFile && writeFileSync(options.stateFile, JSON.stringify([...schedules.values()], null, 2));

  /** Why AWS would not let this run reach its target, if it would not; `assumed` says whether the role could be assumed at all. */
  const refusal = (group: string, target: ScheduleTarget): { reason: string; assumed: boolean; errorCode: string } | undefined => {
    const role = options.roles[target.RoleArn];
    const context = { 'aws:SourceAccount': ACCOUNT, 'aws:SourceArn': scheduleGroupArn('aws', REGION, ACCOUNT, group) };
    if (!role || !policyAllows(role.trust, { action: 'sts:AssumeRole', principal: SCHEDULER_PRINCIPAL, context })) {
      return { reason: `role ${target.RoleArn} does not trust ${SCHEDULER_PRINCIPAL} for ${context['aws:SourceArn']} of account ${ACCOUNT}`, assumed: false, errorCode: 'AccessDeniedException' };
    }
    const functionName = target.Arn.split(':').pop() ?? '';
    if (target.Arn !== localFunctionArn(functionName) || !options.targets[functionName]) {
      return { reason: `no function ${target.Arn} in ${REGION} of account ${ACCOUNT}`, assumed: true, errorCode: 'ResourceNotFoundException' };
    }
    if (!policyAllows(role.permissions, { action: 'lambda:InvokeFunction', resource: target.Arn })) {
      return { reason: `role ${target.RoleArn} may not lambda:InvokeFunction ${target.Arn}`, assumed: true, errorCode: 'AccessDeniedException' };
    }
    return undefined;
  };

  /** As Scheduler does with an invocation it gives up on: to the dead-letter queue, as the role, with its attributes; else dropped. */
  const deadLetter = (name: string, group: string, target: ScheduleTarget, refused: { reason: string; assumed: boolean; errorCode: string }) => {
    const queueArn = target.DeadLetterConfig?.Arn;
    const role = options.roles[target.RoleArn];
    const attribute = (value: string): MessageAttribute => ({ DataType: 'String', StringValue: value });
    const sent =
      refused.assumed &&
      queueArn !== undefined &&
      role !== undefined &&
      policyAllows(role.permissions, { action: 'sqs:SendMessage', resource: queueArn }) &&
      options.sendToQueue(queueArn, target.Input ?? '{}', {
        ERROR_CODE: attribute(refused.errorCode),
        ERROR_MESSAGE: attribute(refused.reason),
        EXHAUSTED_RETRY_CONDITION: attribute('None'),
        RETRY_ATTEMPTS: attribute('0'),
        SCHEDULE_ARN: attribute(`arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${group}/${name}`),
        TARGET_ARN: attribute(target.Arn),
      });
    const outcome = sent ? 'dead-lettered' : 'dropped';
    refusals.push({ schedule: name, group, reason: refused.reason, outcome });
    console.error(`[scheduler] ${group}/${name} refused (${refused.reason}): ${outcome}`);
  };

  const runTarget = async (name: string, group: string, target: ScheduleTarget) => {
    const refused = refusal(group, target);
    if (refused) return deadLetter(name, group, target, refused);
    const functionName = target.Arn.split(':').pop()!;
    const input: unknown = JSON.parse(target.Input ?? '{}');
    for (let attempt = 0; ; attempt++) {
      try {
        await invoke(functionName, options.targets[functionName]!, input);
        return;
      } catch (failure) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          // Lambda's asynchronous invocation gave up: its on-failure destination gets the record.
          const destination = options.onFailure[functionName];
          const kept = destination !== undefined && options.sendToQueue(destination, JSON.stringify(onFailureRecord(functionName, input, failure, attempt + 1)));
          console.error(`[scheduler] ${group}/${name} failed${kept ? ', moved to its dead-letter queue' : ''}`, failure);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };

  const fire = async (schedule: StoredSchedule) => {
    await runTarget(schedule.Name, schedule.GroupName, schedule.Target);
    const id = key(schedule.GroupName, schedule.Name);
    // A one-time schedule is done; with DELETE the scheduler removes it (as long as nobody replaced it meanwhile).
    if (schedule.ActionAfterCompletion === 'DELETE' && schedules.get(id) === schedule) {
      schedules.delete(id);
      save();
    }
  };

  const arm = (schedule: StoredSchedule) => {
    const id = key(schedule.GroupName, schedule.Name);
    const due = atTime(schedule.ScheduleExpression, schedule.ScheduleExpressionTimezone) ?? Date.now();
    const wait = due - Date.now();
    const timer = setTimeout(
      () => {
        timers.delete(id);
        if (wait > MAX_TIMER_MS) return arm(schedule);
        const firing = fire(schedule);
        inFlight.add(firing);
        void firing.finally(() => inFlight.delete(firing));
      },
      Math.min(Math.max(0, wait), MAX_TIMER_MS),
    );
    timers.set(id, timer);
  };

  const disarm = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };

  if (options.stateFile && existsSync(options.stateFile)) {
    for (const schedule of JSON.parse(readFileSync(options.stateFile, 'utf8')) as StoredSchedule[]) {
      schedules.set(key(schedule.GroupName, schedule.Name), schedule);
      if (!groups.has(schedule.GroupName)) addGroup(schedule.GroupName);
      arm(schedule);
    }
  }

  const handle = (method: string, name: string, group: string, body: Record<string, unknown>) => {
    const id = key(group, name);
    const existing = schedules.get(id);
    if (method === 'GET') return existing ?? error('ResourceNotFoundException', 404, `Schedule ${name} does not exist.`);
    if (method === 'DELETE') {
      if (!existing) return error('ResourceNotFoundException', 404, `Schedule ${name} does not exist.`);
      schedules.delete(id);
      disarm(id);
      save();
      return {};
    }
    if (method !== 'POST') return error('ValidationException', 400, `${method} is not supported here`);
    if (!groups.has(group)) return error('ResourceNotFoundException', 404, `Schedule group ${group} does not exist.`);
    if (existing) return error('ConflictException', 409, `Schedule ${name} already exists.`);
    const target = body.Target as StoredSchedule['Target'] | undefined;
    const expression = String(body.ScheduleExpression ?? '');
    if (!target?.Arn || !target.RoleArn) return error('ValidationException', 400, 'Target.Arn and Target.RoleArn are required.');
    const invalidTarget = targetValidation(target);
    if (invalidTarget) return error('ValidationException', 400, invalidTarget);
    if (atTime(expression, body.ScheduleExpressionTimezone as string | undefined) === undefined) {
      return error('ValidationException', 400, `Only one-time at() schedules in UTC are emulated: ${expression}`);
    }
    const now = Math.floor(Date.now() / 1000);
    const schedule: StoredSchedule = {
      Arn: `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${group}/${name}`,
      Name: name,
      GroupName: group,
      ScheduleExpression: expression,
      ...(body.ScheduleExpressionTimezone ? { ScheduleExpressionTimezone: String(body.ScheduleExpressionTimezone) } : {}),
      State: String(body.State ?? 'ENABLED'),
      ...(body.ActionAfterCompletion ? { ActionAfterCompletion: String(body.ActionAfterCompletion) } : {}),
      FlexibleTimeWindow: body.FlexibleTimeWindow,
      Target: target,
      CreationDate: now,
      LastModificationDate: now,
    };
    schedules.set(id, schedule);
    created.push(schedule);
    if (created.length > CREATED_SCHEDULES_KEPT) created.splice(0, created.length - CREATED_SCHEDULES_KEPT);
    save();
    if (schedule.State === 'ENABLED') arm(schedule);
    return { ScheduleArn: schedule.Arn };
  };

  /** ListSchedules of one group (the only way our code lists), a page at a time; the token is the next page's first index. */
  const list = (params: URLSearchParams) => {
    const group = params.get('ScheduleGroup') ?? 'default';
    const prefix = params.get('NamePrefix') ?? '';
    const size = Number(params.get('MaxResults') ?? LIST_SCHEDULES_MAX_RESULTS);
    if (!Number.isInteger(size) || size < 1 || size > LIST_SCHEDULES_MAX_RESULTS) return error('ValidationException', 400, `MaxResults must be 1 to ${LIST_SCHEDULES_MAX_RESULTS}: ${size}`);
    const from = Number(params.get('NextToken') ?? 0);
    const matching = [...schedules.values()].filter((schedule) => schedule.GroupName === group && schedule.Name.startsWith(prefix)).sort((a, b) => a.Name.localeCompare(b.Name));
    const page = matching.slice(from, from + size).map(({ Arn, Name, GroupName, State, CreationDate, LastModificationDate, Target }) => ({
      Arn,
      Name,
      GroupName,
      State,
      CreationDate,
      LastModificationDate,
      Target: { Arn: Target.Arn },
    }));
    return { Schedules: page, ...(from + size < matching.length ? { NextToken: String(from + size) } : {}) };
  };

  const handleGroup = (method: string, name: string) => {
    const existing = groups.get(name);
    if (method === 'POST') return existing ? error('ConflictException', 409, `Schedule group ${name} already exists.`) : { ScheduleGroupArn: addGroup(name).Arn };
    if (!existing) return error('ResourceNotFoundException', 404, `Schedule group ${name} does not exist.`);
    if (method === 'GET') return existing;
    if (method !== 'DELETE') return error('ValidationException', 400, `${method} is not supported here`);
    if (name === 'default') return error('ValidationException', 400, 'The default schedule group cannot be deleted.');
    // Scheduler deletes the group's schedules with it.
    for (const schedule of [...schedules.values()].filter((candidate) => candidate.GroupName === name)) {
      const id = key(name, schedule.Name);
      schedules.delete(id);
      disarm(id);
    }
    groups.delete(name);
    save();
    return {};
  };

  const route = (req: IncomingMessage, url: URL, body: Record<string, unknown>) => {
    const method = req.method ?? 'GET';
    if (url.pathname === '/schedules' && method === 'GET') return list(url.searchParams);
    const scheduleMatch = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    if (scheduleMatch) {
      const group = String((method === 'POST' ? body.GroupName : url.searchParams.get('groupName')) ?? 'default');
      return handle(method, decodeURIComponent(scheduleMatch[1]!), group, body);
    }
    const groupMatch = /^\/schedule-groups\/([^/]+)$/.exec(url.pathname);
    if (groupMatch) return handleGroup(method, decodeURIComponent(groupMatch[1]!));
    return error('UnknownOperationException', 404, url.pathname);
  };

  const server = createServer(guarded('scheduler', async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = (await readBody(req)).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const result = route(req, url, body);
    if ('type' in result && 'status' in result) {
      return sendJson(res, result.status, { Message: result.message }, { 'x-amzn-errortype': result.type });
    }
    sendJson(res, 200, result);
  }));

  const listening = await listen(server, options.port);
  return {
    ...listening,
    schedules: () => [...schedules.values()],
    created: () => [...created],
    refusals: () => [...refusals],
    run: async (name, group, target) => {
      const running = runTarget(name, group, target);
      inFlight.add(running);
      try {
        await running;
      } finally {
        inFlight.delete(running);
      }
    },
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    close: async () => {
      for (const id of [...timers.keys()]) disarm(id);
      await listening.close();
    },
  };
}
