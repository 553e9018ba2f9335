import { Link, NavLink } from 'react-router-dom';
import type { NavItem } from '../../lib/navigation';

/** A navigation entry; it marks itself as the current page, except a section link ("/#jobs"), which is no page of its own. */
export function NavItemLink({ item, className, onFollow }: { item: NavItem; className: string; onFollow?: () => void }) {
  if (item.to.includes('#')) {
    return (
      <Link to={item.to} className={className} onClick={onFollow}>
        {item.label}
      </Link>
    );
  }
  return (
    <NavLink to={item.to} end className={className} onClick={onFollow}>
      {item.label}
    </NavLink>
  );
}
