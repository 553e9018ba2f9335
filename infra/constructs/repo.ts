import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: declarations name entry points, and the app names web/dist, from it. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
