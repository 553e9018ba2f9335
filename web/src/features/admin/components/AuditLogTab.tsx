import { SelectField, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { ADMIN_ACTION_TYPES, type AdminActionType } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { fetchAdminActions } from '../api/fetch-admin-actions';
import { useAdminPages } from '../hooks/useAdminPages';

/** admin_actions newest first, all or one action type. */
export default function AuditLogTab() {
  const [type, setType] = useState<AdminActionType | null>(null);
  const actions = useAdminPages(ADMIN_QUERY.actions(type), (api, cursor) => fetchAdminActions(api, type, cursor));
  return (
    <section aria-label="Audit Log">
      <SelectField
        label="Action type"
        size="small"
        className="admin-filter"
        value={type ?? ''}
        onChange={(event) => setType((event.target.value || null) as AdminActionType | null)}
      >
        <option value="">All actions</option>
        {ADMIN_ACTION_TYPES.map((option) => (
          <option key={option} value={option}>
            {option.replace(/_/g, ' ')}
          </option>
        ))}
      </SelectField>
      <TableStates
        what="admin actions"
        query={actions}
        failedText={(reason) => MSG.admin.loadFailed('admin actions', reason)}
        isEmpty={actions.rows.length === 0}
        emptyText="No admin actions recorded."
      >
        <Table caption="Admin actions, newest first" highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">When</TableCell>
              <TableCell as="th">Action</TableCell>
              <TableCell as="th">Target</TableCell>
              <TableCell as="th">Reason</TableCell>
              <TableCell as="th">By</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {actions.rows.map((action) => (
              <TableRow key={action.id}>
                <TableCell>{new Date(action.createdAt).toLocaleString()}</TableCell>
                <TableCell>{action.actionType.replace(/_/g, ' ')}</TableCell>
                <TableCell title={action.targetId}>
                  {action.targetType} {String(action.details.jobTitle ?? action.targetId.slice(0, 12))}
                </TableCell>
                <TableCell>{action.reason}</TableCell>
                <TableCell>{action.adminId === 'system' ? 'System' : 'Admin'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
    </section>
  );
}
