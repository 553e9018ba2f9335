import type { ResolutionTemplate } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchResolutionTemplates = (api: ApiClient) => api.get<{ items: ResolutionTemplate[] }>('/admin/dispute-templates');
