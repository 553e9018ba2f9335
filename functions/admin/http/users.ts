import type { UserAction } from '../../../shared/admin.js';
import { adminUsersQuerySchema, userActionSchema } from '../../../shared/schemas/admin.js';
import { actOnUser, adminUserDetail, searchUsers } from '../admin-users.js';
import { parseWith, routeGroup, type SignedInRequest } from '../../lib/http.js';

/** POST /admin/users/{id}/<action>: the reason is required; the answer is the user after it. */
const userAction = (action: UserAction) => async (request: SignedInRequest) => {
  const { reason } = request.body(userActionSchema);
  return actOnUser(action, request.params.id ?? '', reason, request.caller.userId);
};

export const handler = routeGroup('users', {
  /** By name or email prefix (an index, never a scan), role and status; 50 per page. */
  'GET /admin/users': async ({ query }) => searchUsers(parseWith(adminUsersQuerySchema, query)),

  /** The user's page: profile, payment account, jobs, applications, disputes, reviews, payments, audit trail. */
  'GET /admin/users/{id}': async ({ params }) => adminUserDetail(params.id ?? ''),

  'POST /admin/users/{id}/suspend': userAction('suspend'),
  'POST /admin/users/{id}/reinstate': userAction('reinstate'),
  'POST /admin/users/{id}/password-reset': userAction('password-reset'),
  /** The "ID verified" badge removed (issue 47): the user is told and may verify again. */
  'POST /admin/users/{id}/identity-revocation': userAction('identity-revocation'),
});
