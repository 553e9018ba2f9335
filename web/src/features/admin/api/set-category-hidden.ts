import type { JobCategory } from '../../../../../shared/categories';
import type { ApiClient } from '../../../lib/api/client';

export const setCategoryHidden = (api: ApiClient, category: JobCategory, hidden: boolean, reason: string) =>
  api.put<{ category: JobCategory; hidden: boolean }>('/admin/categories', { category, hidden, reason });
