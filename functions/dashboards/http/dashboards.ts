import type { Dashboard } from '../../../shared/api.js';
import { loadDashboard } from '../dashboards.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('dashboards', {
  /** The caller's own dashboard: their jobs with the parties' fields, earnings, rating and reviews. */
  'GET /me/dashboard': async ({ caller }): Promise<Dashboard> => loadDashboard(caller.userId),
});
