import { Badge, Button, SelectField, Table, TableBody, TableCell, TableHead, TableRow, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ACCOUNT_STATUSES, type AccountStatus } from '../../../../../shared/admin';
import type { IdentityFilter } from '../../../../../shared/identity';
import { MSG } from '../../../../../shared/messages';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { ROLES, type Role } from '../../../../../shared/roles';
import { TableStates } from './TableStates';
import { ADMIN_QUERY, type UsersFilter } from '../api/admin-query-keys';
import { fetchAdminUsers } from '../api/fetch-admin-users';
import { useAdminPages } from '../hooks/useAdminPages';

/** Every user by name, or those whose name or email starts with the search; by role and status; each links to their page. */
export default function UsersTab() {
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<UsersFilter>({ q: '', role: null, status: null, verification: null });
  const users = useAdminPages(ADMIN_QUERY.users(filter), (api, cursor) => fetchAdminUsers(api, filter, cursor));

  function search(event: FormEvent) {
    event.preventDefault();
    setFilter({ ...filter, q: text.trim() });
  }

  return (
    <section aria-label="Users">
      <form className="admin-toolbar" role="search" onSubmit={search}>
        <TextField
          label="Name or email starts with"
          size="small"
          type="search"
          value={text}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
        <Button size="small" type="submit">
          Search
        </Button>
        <SelectField
          label="Role"
          size="small"
          value={filter.role ?? ''}
          onChange={(event) => setFilter({ ...filter, role: (event.target.value || null) as Role | null })}
        >
          <option value="">All roles</option>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Status"
          size="small"
          value={filter.status ?? ''}
          onChange={(event) => setFilter({ ...filter, status: (event.target.value || null) as AccountStatus | null })}
        >
          <option value="">Any status</option>
          {ACCOUNT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Identity"
          size="small"
          value={filter.verification ?? ''}
          onChange={(event) => setFilter({ ...filter, verification: (event.target.value || null) as IdentityFilter | null })}
        >
          <option value="">Verified or not</option>
          <option value="verified">ID verified</option>
          <option value="unverified">Not ID verified</option>
        </SelectField>
      </form>
      <TableStates
        what="users"
        query={users}
        failedText={MSG.admin.usersLoadFailed}
        isEmpty={users.rows.length === 0}
        emptyText={filter.q ? `No users whose name or email starts with "${filter.q}".` : 'No users match these filters.'}
      >
        <Table caption={filter.q ? `Users matching "${filter.q}"` : 'Users by name'} highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Name</TableCell>
              <TableCell as="th">Email</TableCell>
              <TableCell as="th">Role</TableCell>
              <TableCell as="th">Status</TableCell>
              <TableCell as="th">Joined</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.rows.map((user) => (
              <TableRow key={user.id}>
                <TableCell>
                  <Link to={`/admin/users/${user.id}`}>{user.name || user.email}</Link> <IdentityBadge verified={user.identityVerified} />
                </TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{user.role}</TableCell>
                <TableCell>
                  <Badge size="small" variation={user.accountStatus === 'suspended' ? 'error' : 'success'}>
                    {user.accountStatus === 'suspended' ? 'Suspended' : 'Active'}
                  </Badge>
                </TableCell>
                <TableCell>{new Date(user.createdAt).toLocaleDateString()}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
    </section>
  );
}
