import { accountDeletionSchema } from '../../../shared/schemas/profile.js';
import { deleteAccount } from '../account-deletion.js';
import { routeGroup } from '../../lib/http.js';

export const handler = routeGroup('accountDeletion', {
  /** "Delete account" (issue 27): confirmed by the password; refused while work, money or a dispute is pending. */
  'POST /me/deletion': async (request) => {
    const { password } = request.body(accountDeletionSchema);
    await deleteAccount(request.caller, password);
    return { deleted: true };
  },
});
