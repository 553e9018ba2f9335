import { afterAll, beforeAll, inject } from 'vitest';
import { startE2eStack, type E2eStack } from './e2e-stack.js';

type Target = Pick<E2eStack, 'webUrl' | 'mailboxUrl' | 'pushReceiverUrl' | 'runtimeConfig'>;

let own: E2eStack | undefined;

/** The stack the helpers talk to: this file's own (useOwnStack), or else the suite's. */
export function e2eTarget(): Target {
  return own ?? { webUrl: inject('webUrl'), mailboxUrl: inject('mailboxUrl'), pushReceiverUrl: inject('pushReceiverUrl'), runtimeConfig: inject('runtimeConfig') };
}

/** The table of that stack, for set-up the app offers no way to (an account Stripe stopped trusting). */
export function e2eTable(): E2eStack['table'] {
  return own?.table ?? inject('table');
}

/**
 * Runs this file against a stack of its own with other settings (a short auto-release delay),
 * so that the suite's stack keeps the deploy's and no other file is affected or kept waiting.
 */
export function useOwnStack(options: Parameters<typeof startE2eStack>[0]): void {
  beforeAll(async () => {
    own = await startE2eStack(options);
  }, 240_000);
  afterAll(async () => {
    const stack = own;
    own = undefined;
    await stack?.stop();
  });
}
