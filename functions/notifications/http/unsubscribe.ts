import { MSG } from '../../../shared/messages.js';
import { UNSUBSCRIBE_TOKEN_PARAM } from '../../../shared/unsubscribe-token.js';
import { turnOffEmail } from '../../location/worker-locations.js';
import { badRequest } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';
import { verifyUnsubscribeToken } from '../../lib/unsubscribe-tokens.js';

export const handler = routeGroup('unsubscribe', {
  /**
   * RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` to the URL of the
   * List-Unsubscribe header, without signing in; the signed token in the URL names the user and
   * the type, and only that type stops by email. The unsubscribe page posts here too.
   */
  'POST /unsubscribe': async ({ query }) => {
    const subject = await verifyUnsubscribeToken(query[UNSUBSCRIBE_TOKEN_PARAM] ?? '');
    if (!subject) throw badRequest(MSG.unsubscribe.invalidLink);
    await turnOffEmail(subject.userId, subject.type);
    return { type: subject.type, email: false };
  },
});
