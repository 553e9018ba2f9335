import { Link } from 'react-router-dom';
import { ROLE_HOME } from '../../../../shared/roles';
import { PENDING_MSG } from '../../pending-messages';

/** The strip under the header that reminds the admin they act with admin rights. */
export function AdminToolsBar() {
  return (
    <section className="admin-bar" aria-label={PENDING_MSG.nav.adminTools}>
      <div className="admin-bar__inner">
        <span className="admin-bar__title">{PENDING_MSG.nav.adminTools}</span>
        <span className="admin-bar__notice">{PENDING_MSG.nav.adminModeActive}</span>
        <Link to={ROLE_HOME.admin} className="button button--small">
          Dashboard
        </Link>
      </div>
    </section>
  );
}
