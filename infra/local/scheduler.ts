import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';
import { invoke } from './lambda-runtime.js';

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
/** Like the scheduler's retry policy, a failed invocation is tried again (here: 3 tries in all). */
const RETRY_DELAYS_MS = [500, 2000];
/** setTimeout's longest delay; a schedule further ahead is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The local function name of a schedule target (the last part of its ARN). */
export const scheduleTargetName = (name: string) => `schedule-${name}`;
export const localFunctionArn = (functionName: string) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName}`;

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
  Target: { Arn: string; RoleArn: string; Input?: string };
  CreationDate: number;
  LastModificationDate: number;
}

export interface LocalScheduler extends Listening {
  /** The schedules that have not fired or been deleted (tests read them). */
  schedules(): StoredSchedule[];
  /** Resolves once every invocation started so far has finished. */
  idle(): Promise<void>;
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, the one-time expression; the only kind our code creates. */
function atTime(expression: string, timezone = 'UTC'): number | undefined {
  const match = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression);
  if (!match || timezone !== 'UTC') return undefined;
  return Date.parse(`${match[1]}Z`);
}

const error = (type: string, status: number, message: string) => ({ type, status, message });

/**
 * A local EventBridge Scheduler for one-time `at()` schedules: CreateSchedule, GetSchedule and
 * DeleteSchedule on the service's REST wire protocol (so `@aws-sdk/client-scheduler` talks to it
 * with only its endpoint changed), firing each schedule's Lambda target, one of `targets` by
 * its function name, with the schedule's input at its time on this machine's clock. Schedules
 * are kept in `stateFile`, so a restart fires those that came due while it was down.
 */
export async function serveScheduler(options: {
  port: number;
  /** Function name (the end of the target ARN) -> its declaration. */
  targets: Record<string, FunctionDeclaration>;
  stateFile?: string;
}): Promise<LocalScheduler> {
  const schedules = new Map<string, StoredSchedule>();
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const key = (group: string, name: string) => `${group}/${name}`;
  const save = () => options.stateFile && writeFileSync(options.stateFile, JSON.stringify([...schedules.values()], null, 2));

  const fire = async (schedule: StoredSchedule) => {
    const functionName = schedule.Target.Arn.split(':').pop() ?? '';
    const declaration = options.targets[functionName];
    for (let attempt = 0; ; attempt++) {
      try {
        if (!declaration) throw new Error(`Function not found: ${schedule.Target.Arn}`);
        await invoke(functionName, declaration, JSON.parse(schedule.Target.Input ?? '{}'));
        break;
      } catch (failure) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          console.error(`[scheduler] ${schedule.Name} failed`, failure);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
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
    if (existing) return error('ConflictException', 409, `Schedule ${name} already exists.`);
    const target = body.Target as StoredSchedule['Target'] | undefined;
    const expression = String(body.ScheduleExpression ?? '');
    if (!target?.Arn || !target.RoleArn) return error('ValidationException', 400, 'Target.Arn and Target.RoleArn are required.');
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
    save();
    if (schedule.State === 'ENABLED') arm(schedule);
    return { ScheduleArn: schedule.Arn };
  };

  const server = createServer(guarded('scheduler', async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    const raw = (await readBody(req)).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const name = match ? decodeURIComponent(match[1]!) : '';
    const group = String((req.method === 'POST' ? body.GroupName : url.searchParams.get('groupName')) ?? 'default');
    const result = match ? handle(req.method ?? 'GET', name, group, body) : error('UnknownOperationException', 404, url.pathname);
    if ('type' in result && 'status' in result) {
      return sendJson(res, result.status, { Message: result.message }, { 'x-amzn-errortype': result.type });
    }
    sendJson(res, 200, result);
  }));

  const listening = await listen(server, options.port);
  return {
    ...listening,
    schedules: () => [...schedules.values()],
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    close: async () => {
      for (const id of [...timers.keys()]) disarm(id);
      await listening.close();
    },
  };
}
