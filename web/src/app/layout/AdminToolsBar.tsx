import { Link } from 'react-router-dom';
import { ROLE_HOME } from '../../../../shared/roles';
import { MSG } from '../../../../shared/messages';

/** The strip under the header that reminds the admin they act with admin rights. */
export function AdminToolsBar() {
  return (
    <section className="admin-bar" aria-label={MSG.nav.adminTools}>
      <div className="admin-bar__inner">
        <span className="admin-bar__title">{MSG.nav.adminTools}</span>
        <span className="admin-bar__notice">{MSG.nav.adminModeActive}</span>
        <Link to={ROLE_HOME.admin} className="button button--small">
          Dashboard
        </Link>
      </div>
    </section>
  );
}
