// The platform Admin's sub-navigation, with the queue dashboard (served by the API, opened with this session).
import { NavLink } from 'react-router';
import { Tabs } from '../../ui/page.js';

export const PlatformTabs = () => (
  <Tabs label="Platform">
    <NavLink end to="/platform">
      Accounts and roles
    </NavLink>
    <NavLink to="/platform/quota-requests">Quota requests</NavLink>
    <NavLink to="/platform/wallets">Recharges and refunds</NavLink>
    <NavLink to="/platform/top-up-codes">Top-up codes</NavLink>
    <NavLink to="/platform/audit-log">Audit log</NavLink>
    <a href="/admin/queues">Queue dashboard</a>
  </Tabs>
);
