import { Badge, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CategoryStats } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { useCategories } from '../api/fetch-categories';
import { setCategoryHidden } from '../api/set-category-hidden';

/** Every category with its figures; the admin hides one from posting (its jobs stay) or shows it again, with a reason. */
export default function CategoriesTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const categories = useCategories();
  const [changing, setChanging] = useState<CategoryStats | null>(null);
  const rows = categories.data?.items ?? [];

  async function change(category: CategoryStats, reason: string) {
    const hidden = !category.hidden;
    try {
      await setCategoryHidden(api, category.category, hidden, reason);
      toast.success(hidden ? MSG.admin.categoryHidden(category.category) : MSG.admin.categoryShown(category.category));
      setChanging(null);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.admin.categoryChangeFailed));
    } finally {
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.categories });
    }
  }

  return (
    <section aria-label="Categories">
      <TableStates
        what="categories"
        query={categories}
        failedText={(reason) => MSG.admin.loadFailed('categories', reason)}
        isEmpty={rows.length === 0}
        emptyText="No categories."
      >
        <Table caption="Categories" highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Category</TableCell>
              <TableCell as="th">Open jobs</TableCell>
              <TableCell as="th">Completed jobs</TableCell>
              <TableCell as="th">Average payment</TableCell>
              <TableCell as="th">Revenue</TableCell>
              <TableCell as="th">Posting</TableCell>
              <TableCell as="th">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.category}>
                <TableCell>{row.category}</TableCell>
                <TableCell>{row.openJobs}</TableCell>
                <TableCell>{row.completedJobs}</TableCell>
                <TableCell>{row.averagePayment === null ? '–' : formatCents(row.averagePayment)}</TableCell>
                <TableCell>{formatCents(row.revenue)}</TableCell>
                <TableCell>
                  <Badge size="small" variation={row.hidden ? 'warning' : 'success'}>
                    {row.hidden ? 'Hidden' : 'Open'}
                  </Badge>
                </TableCell>
                <TableCell>
                  <Button size="small" variation={row.hidden ? 'primary' : 'warning'} onClick={() => setChanging(row)}>
                    {row.hidden ? 'Show' : 'Hide'}
                    <span className="visually-hidden"> {row.category}</span>
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
      {changing ? (
        <ReasonDialog
          title={changing.hidden ? `Show ${changing.category} again?` : `Hide ${changing.category}?`}
          label="Reason"
          confirmLabel={changing.hidden ? 'Show category' : 'Hide category'}
          missingReason={MSG.admin.categoryReasonRequired}
          onConfirm={(reason) => change(changing, reason)}
          onCancel={() => setChanging(null)}
        >
          <p>
            {changing.hidden
              ? `Posters can choose ${changing.category} for new jobs again.`
              : `Posters can no longer choose ${changing.category} for new jobs. Its existing jobs stay as they are.`}
          </p>
        </ReasonDialog>
      ) : null}
    </section>
  );
}
