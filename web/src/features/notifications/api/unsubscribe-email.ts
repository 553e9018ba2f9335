import type { NotificationType } from '../../../../../shared/api';
import { UNSUBSCRIBE_PATH, UNSUBSCRIBE_TOKEN_PARAM } from '../../../../../shared/unsubscribe-token';
import type { ApiClient } from '../../../lib/api/client';

/** An email's unsubscribe link, confirmed on its page: no sign-in, the signed token decides. */
export const unsubscribeEmail = (api: ApiClient, token: string) =>
  api.post<{ type: NotificationType; email: false }>(`${UNSUBSCRIBE_PATH}?${UNSUBSCRIBE_TOKEN_PARAM}=${encodeURIComponent(token)}`, {});
