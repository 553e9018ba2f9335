import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import type { OwnProfile } from '../../../../shared/api';
import { useSignOut } from '../../lib/auth/useSignOut';
import { Avatar } from '../../lib/components/Avatar';
import { userMenuItems } from '../../lib/navigation';
import { useDismissible } from '../../lib/hooks/useDismissible';

/** Which item takes focus when the menu opens: the first (Enter, Space, Down, a click) or the last (Up). */
type OpenFocus = 'first' | 'last';

const menuItemsOf = (menu: HTMLElement | null) => Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

/**
 * The avatar button and its menu: who is signed in, their pages and Sign Out. Keyboard use
 * follows the ARIA menu button pattern: Enter, Space or the arrows open it, the arrows, Home
 * and End move between items, Escape closes it and returns to the button, Tab leaves it.
 */
export function UserMenu({ profile }: { profile: OwnProfile | null }) {
  const [openFocus, setOpenFocus] = useState<OpenFocus | null>(null);
  const open = openFocus !== null;
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const toggleId = useId();
  const signOut = useSignOut();
  const name = profile?.name ?? 'Account';
  const close = useCallback(() => setOpenFocus(null), []);

  useDismissible(open, close, container, toggle);

  useEffect(() => {
    if (!openFocus) return;
    const all = menuItemsOf(menu.current);
    (openFocus === 'first' ? all[0] : all.at(-1))?.focus();
  }, [openFocus]);

  function onToggleKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpenFocus(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const all = menuItemsOf(menu.current);
    const current = all.indexOf(document.activeElement as HTMLElement);
    const moveTo = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return moveTo(current + 1);
      case 'ArrowUp':
        return moveTo(current - 1);
      case 'Home':
        return moveTo(0);
      case 'End':
        return moveTo(all.length - 1);
      case 'Tab':
        // Focus moves on from the button, as if the menu had never opened.
        return close();
    }
  }

  return (
    <div className="user-menu" ref={container}>
      <button
        ref={toggle}
        id={toggleId}
        type="button"
        className="user-menu__toggle"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpenFocus(open ? null : 'first')}
        onKeyDown={onToggleKeyDown}
      >
        <Avatar name={name} imageUrl={profile?.profileImage ?? null} />
      </button>
      <div className="user-menu__panel" hidden={!open}>
        <div className="user-menu__identity">
          <p className="user-menu__name">{name}</p>
          {profile ? <p className="user-menu__email">{profile.email}</p> : null}
        </div>
        <ul ref={menu} id={menuId} role="menu" aria-labelledby={toggleId} className="user-menu__items" onKeyDown={onMenuKeyDown}>
          {userMenuItems(profile).map((item) => (
            <li key={item.label} role="none">
              <Link to={item.to} role="menuitem" tabIndex={-1} className="user-menu__item" onClick={close}>
                {item.label}
              </Link>
            </li>
          ))}
          <li role="separator" className="user-menu__separator" />
          <li role="none">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="user-menu__item user-menu__item--sign-out"
              onClick={() => {
                close();
                void signOut();
              }}
            >
              Sign Out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
