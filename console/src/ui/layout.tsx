// The frame of every page: the header with the areas this account may use, the organization switcher, and who is
// signed in. What a role may not do is not shown (the API refuses it anyway).
import { Suspense } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { useOrganization } from '../session/organization.js';
import { hasRole, useMe, useSignOut } from '../session/session.js';
import { usePhoneMenu } from './phone-menu.js';
import { Loading } from './status.js';

function OrganizationSwitcher() {
  const { organizations, current, select } = useOrganization();
  if (organizations.length === 0) return null;
  return (
    <label className="org-switch">
      <span className="visually-hidden">Organization</span>
      <select value={current?.id ?? ''} onChange={(e) => select(e.target.value)} aria-label="Organization">
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} ({o.role})
          </option>
        ))}
      </select>
    </label>
  );
}

function AccountMenu() {
  const me = useMe();
  const signOut = useSignOut();
  const navigate = useNavigate();
  if (me.isPending) return null;
  if (!me.data) {
    return (
      <Link className="button" to="/sign-in">
        Sign in
      </Link>
    );
  }
  return (
    <div className="account-menu">
      <span className="muted">{me.data.name}</span>
      <button
        type="button"
        onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/', { replace: true }) })}
      >
        Sign out
      </button>
    </div>
  );
}

export function Layout() {
  const me = useMe().data;
  const { organizations } = useOrganization();
  // On a phone (640 px and less) the areas, the organization switcher and the account sit behind "Menu", so the
  // header is one line; a wider screen shows them all, and the button not at all.
  const menu = usePhoneMenu();
  const areas: [string, string, boolean][] = [
    ['/hub', 'Hub', true],
    ['/account', 'Account', Boolean(me)],
    ['/publisher', 'Publisher', hasRole(me, 'Publisher')],
    ['/moderation', 'Moderation', hasRole(me, 'Moderator', 'Admin')],
    ['/org', 'Organization', Boolean(me)],
    ['/gateway', 'Gateway', Boolean(me) && organizations.length > 0],
    ['/platform', 'Platform', hasRole(me, 'Admin')],
  ];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          ockhub
        </Link>
        <button
          type="button"
          className="menu-button"
          aria-expanded={menu.open}
          aria-controls="top-menu"
          ref={menu.buttonRef}
          onClick={menu.toggle}
        >
          Menu
        </button>
        <div id="top-menu" className={menu.open ? 'top-menu open' : 'top-menu'} ref={menu.boxRef}>
          <nav aria-label="Areas">
            {areas
              .filter(([, , visible]) => visible)
              .map(([to, label]) => (
                <NavLink key={to} to={to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
                  {label}
                </NavLink>
              ))}
          </nav>
          <div className="top-right">
            {me ? <OrganizationSwitcher /> : null}
            <AccountMenu />
          </div>
        </div>
      </header>
      <main id="main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="bottom muted">
        ockhub · <a href="/docs">API reference</a>
      </footer>
    </>
  );
}
