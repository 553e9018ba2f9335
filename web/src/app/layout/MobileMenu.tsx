import { useCallback, useId, useRef, useState } from 'react';
import type { OwnProfile } from '../../../../shared/api';
import { useSignOut } from '../../lib/auth/useSignOut';
import { NavItemLink } from './NavItemLink';
import { mobileMenuItems } from '../../lib/navigation';
import { useDismissible } from '../../lib/hooks/useDismissible';

interface MobileMenuProps {
  signedIn: boolean;
  profile: OwnProfile | null;
}

/** The menu button and panel of the mobile layout (the stylesheet shows it below 768 px, and in landscape below 900 px). */
export function MobileMenu({ signedIn, profile }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const signOut = useSignOut();
  const close = useCallback(() => setOpen(false), []);

  useDismissible(open, close, container, toggle);

  return (
    <div className="mobile-menu" ref={container}>
      <button
        ref={toggle}
        type="button"
        className="mobile-menu__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
      >
        <span className="mobile-menu__icon" aria-hidden="true" />
        Menu
      </button>
      <nav id={panelId} className="mobile-menu__panel" aria-label="Mobile" hidden={!open}>
        {signedIn && profile ? (
          <p className="mobile-menu__identity">
            <span className="mobile-menu__name">{profile.name}</span>
            <span className="mobile-menu__email">{profile.email}</span>
          </p>
        ) : null}
        <ul className="mobile-menu__links">
          {mobileMenuItems(signedIn, profile).map((item) => (
            <li key={item.label}>
              <NavItemLink item={item} className="mobile-menu__link" onFollow={close} />
            </li>
          ))}
        </ul>
        {signedIn ? (
          <button
            type="button"
            className="button button--secondary button--block"
            onClick={() => {
              close();
              void signOut();
            }}
          >
            Sign Out
          </button>
        ) : null}
      </nav>
    </div>
  );
}
