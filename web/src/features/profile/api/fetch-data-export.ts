import type { DataExport } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** "Download my data": everything stored about the signed-in user, generated on request. */
export const fetchDataExport = (api: ApiClient) => api.get<DataExport>('/me/export');
