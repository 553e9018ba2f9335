import type { AdminStatus } from '../../../shared/api.js';
import { adminExists } from '../admin-seat.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('accounts', {
  /** Public: the sign-up form offers the admin role only while no admin exists. */
  'GET /accounts/admin-status': async (): Promise<AdminStatus> => ({ adminExists: await adminExists() }),
});
