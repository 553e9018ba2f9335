import { runAutoRelease, type AutoReleaseInput } from '../domain/auto-release.js';
import { withLogContext } from '../lib/logger.js';

/** EventBridge Scheduler's Lambda target: the event is the schedule's input. */
export const handler = withLogContext((input: AutoReleaseInput) => runAutoRelease(input));
