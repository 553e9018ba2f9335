import type { ApiClient } from '../../../lib/api/client';

/** The VAPID public key browsers subscribe to push with (503 while the server has none). */
export const fetchPushPublicKey = (api: ApiClient) => api.get<{ publicKey: string }>('/push/public-key').then((answer) => answer.publicKey);
