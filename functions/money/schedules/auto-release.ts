import { runAutoRelease, type AutoReleaseInput, type ReviewPublicationInput } from '../auto-release.js';
import { withLogContext } from '../../lib/logger.js';

/** EventBridge Scheduler's Lambda target: the event is the schedule's input. */
export const handler = withLogContext((input: AutoReleaseInput | ReviewPublicationInput) => runAutoRelease(input));
