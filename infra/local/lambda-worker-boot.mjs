// The entry of a local function's worker thread (lambda-runtime.ts): plain JavaScript, so
// Node starts it without a loader; it registers tsx for the TypeScript handler modules.
import { register } from 'tsx/esm/api';

register();
await import('./lambda-worker.ts');
