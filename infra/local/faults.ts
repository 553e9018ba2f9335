import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { guarded, listen, readBody, sendJson, type Listening } from './http-util.js';

/**
 * The faults the local emulators can be told to show, by target, modelled on AWS FIS's Lambda
 * actions and each service's own errors (docs/faults.md says what each one does).
 */
export const FAULT_MODES = {
  stripe: ['down', 'slow', 'error', 'webhooks-chaos'],
  dynamodb: ['throttle', 'conflict'],
  events: ['fail'],
  lambda: ['error', 'delay'],
  sockets: ['drop', 'gone'],
} as const;

export type FaultTarget = keyof typeof FAULT_MODES;
export type FaultMode<T extends FaultTarget = FaultTarget> = (typeof FAULT_MODES)[T][number];

/** A fault switched on: its target, mode, and the share of calls it strikes (0 < share <= 1). */
export interface ActiveFault {
  target: FaultTarget;
  mode: FaultMode;
  share: number;
}

/** A fault the switch does not know (the control endpoint answers it 400, the CLI exits 2). */
export class UnknownFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownFault';
  }
}

/** How late Stripe answers in `stripe slow`: past the functions' client timeout (STRIPE_CLIENT_LIMITS, 4 s). */
export const STRIPE_SLOW_MS = 4_500;
/** `stripe webhooks-chaos`: every event twice, a request's events shuffled, each batch this late. */
export const WEBHOOK_CHAOS = { copies: 2, shuffle: true, delayMs: 300 } as const;
/**
 * `lambda delay`: the invocation is held this long and then ends as timed out, without running
 * its handler — a delay past the function's timeout, played fast (the timeouts are 10-60 s).
 */
export const LAMBDA_DELAY_MS = 500;

const isTarget = (target: string): target is FaultTarget => Object.hasOwn(FAULT_MODES, target);

/** Lambda's own message for an invocation that outlasted its timeout. */
export class LambdaTimeout extends Error {
  constructor() {
    super('Task timed out (fault: lambda delay)');
    this.name = 'Sandbox.Timedout';
  }
}

/** A consumer's invocation reported failed after its handler ran (FIS's invocation-error). */
export class InjectedInvocationError extends Error {
  constructor() {
    super('Invocation failed (fault: lambda error)');
    this.name = 'InjectedInvocationError';
  }
}

/**
 * The local stack's fault switch: one fault per target at a time, set and cleared while the
 * stack runs (tests call it; `npm run fault` reaches it over HTTP, serveFaultControl). The
 * emulators ask `strike` on each call they could fail. A share strikes deterministically (the
 * first call and every second one after at 0.5, not a coin toss), so a test's outcome does not
 * depend on luck.
 */
export class FaultSwitch {
  private readonly active = new Map<FaultTarget, ActiveFault & { credits: Map<string, number> }>();
  private readonly listeners = new Set<(target: FaultTarget, fault: ActiveFault | undefined) => void>();

  /** Switches a fault on (replacing the target's current one); throws UnknownFault for a target, mode or share it does not know. */
  set(target: string, mode: string, share = 1): ActiveFault {
    if (!isTarget(target)) throw new UnknownFault(`Unknown fault target '${target}'. Targets: ${Object.keys(FAULT_MODES).join(', ')}.`);
    const modes: readonly string[] = FAULT_MODES[target];
    if (!modes.includes(mode)) throw new UnknownFault(`Unknown mode '${mode}' for ${target}. Modes: ${modes.join(', ')}.`);
    if (!(share > 0 && share <= 1)) throw new UnknownFault(`The share must be a number above 0 and at most 1, not '${share}'.`);
    const fault: ActiveFault = { target, mode: mode as FaultMode, share };
    this.active.set(target, { ...fault, credits: new Map() });
    this.listeners.forEach((listener) => listener(target, fault));
    return fault;
  }

  /** Switches one target's fault off, or every fault. */
  clear(target?: FaultTarget): void {
    for (const cleared of target ? [target] : [...this.active.keys()]) {
      if (!this.active.delete(cleared)) continue;
      this.listeners.forEach((listener) => listener(cleared, undefined));
    }
  }

  status(): ActiveFault[] {
    return [...this.active.values()].map(({ target, mode, share }) => ({ target, mode, share }));
  }

  /**
   * The target's fault if this call is one it strikes, else undefined. Calls are counted per
   * `key` (a function's name): its share of each function's invocations, so one function's
   * retry is not struck again because another's call came between.
   */
  strike<T extends FaultTarget>(target: T, key = ''): FaultMode<T> | undefined {
    const fault = this.active.get(target);
    if (!fault) return undefined;
    // The first call is struck, then every (1/share)th: a fault shows at once.
    const credit = (fault.credits.get(key) ?? 1 - fault.share) + fault.share;
    const struck = credit >= 1 - 1e-9;
    fault.credits.set(key, struck ? credit - 1 : credit);
    return struck ? (fault.mode as FaultMode<T>) : undefined;
  }

  /** The target's fault whether or not it strikes this call (modes that are a setting, not a per-call failure). */
  mode<T extends FaultTarget>(target: T): FaultMode<T> | undefined {
    return this.active.get(target)?.mode as FaultMode<T> | undefined;
  }

  /** Tells `listener` of every change (emulators whose fault is a setting, like the webhooks' delivery). */
  onChange(listener: (target: FaultTarget, fault: ActiveFault | undefined) => void): void {
    this.listeners.add(listener);
  }

  /**
   * An event consumer's invocation under `lambda error` / `lambda delay`: a struck one either
   * runs its handler and is then reported failed (so the retry finds its work done: handlers
   * must be idempotent), or is held and times out without running.
   */
  async invokeConsumer<Result>(functionName: string, run: () => Promise<Result>): Promise<Result> {
    const fault = this.strike('lambda', functionName);
    if (fault === 'delay') {
      await sleep(LAMBDA_DELAY_MS);
      throw new LambdaTimeout();
    }
    const result = await run();
    if (fault === 'error') throw new InjectedInvocationError();
    return result;
  }
}

/**
 * The switch over HTTP, for `npm run fault` beside `npm run dev`: GET /faults lists the active
 * ones, PUT /faults/{target} {"mode", "share"} sets one, DELETE /faults[/{target}] clears.
 */
export async function serveFaultControl(faults: FaultSwitch, port: number): Promise<Listening> {
  const server = createServer(
    guarded('faults', async (req, res) => {
      const [, root, target, ...rest] = new URL(req.url ?? '/', 'http://local').pathname.split('/');
      if (root !== 'faults' || rest.length) return sendJson(res, 404, { message: 'Not Found' });
      try {
        if (req.method === 'GET' && !target) return sendJson(res, 200, { faults: faults.status() });
        if (req.method === 'DELETE') {
          if (target && !isTarget(target)) throw new UnknownFault(`Unknown fault target '${target}'. Targets: ${Object.keys(FAULT_MODES).join(', ')}.`);
          faults.clear(target as FaultTarget | undefined);
          return sendJson(res, 200, { faults: faults.status() });
        }
        if (req.method === 'PUT' && target) {
          const { mode, share } = JSON.parse((await readBody(req)).toString('utf8') || '{}') as { mode?: unknown; share?: unknown };
          faults.set(target, String(mode), share === undefined ? 1 : Number(share));
          return sendJson(res, 200, { faults: faults.status() });
        }
        sendJson(res, 405, { message: 'Method Not Allowed' });
      } catch (error) {
        if (error instanceof UnknownFault || error instanceof SyntaxError) return sendJson(res, 400, { message: error.message });
        throw error;
      }
    }),
  );
  return listen(server, port);
}
