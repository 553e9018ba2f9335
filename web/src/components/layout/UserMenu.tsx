import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { OwnProfile } from '../../../../shared/api';
import { ROLE_HOME } from '../../../../shared/roles';
import { useSignOut } from '../../hooks/useSignOut';
import { initials } from '../../lib/format';

/** The avatar button and its panel: who is signed in, where their pages are, and Sign Out. */
export function UserMenu({ profile }: { profile: OwnProfile | null }) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const signOut = useSignOut();
  const name = profile?.name ?? 'Account';

  // Close on Escape (focus back on the button) and on any click outside.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <div className="user-menu" ref={container}>
      <button
        ref={toggle}
        type="button"
        className="user-menu__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpen((current) => !current)}
      >
        <span className="avatar" aria-hidden="true">
          {initials(name)}
        </span>
      </button>
      <div id={panelId} className="user-menu__panel" hidden={!open}>
        <p className="user-menu__name">{name}</p>
        {profile ? <p className="user-menu__email">{profile.email}</p> : null}
        <ul className="user-menu__links">
          <li>
            <Link to="/profile" onClick={close}>
              Profile
            </Link>
          </li>
          <li>
            <Link to={profile ? ROLE_HOME[profile.role] : '/dashboard'} onClick={close}>
              {profile?.role === 'admin' ? 'Admin Dashboard' : 'Dashboard'}
            </Link>
          </li>
        </ul>
        <button
          type="button"
          className="button button--secondary user-menu__sign-out"
          onClick={() => {
            close();
            void signOut();
          }}
        >
          Sign Out
        </button>
      </div>
    </div>
  );
}
