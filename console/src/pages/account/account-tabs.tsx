// The account area's sub-navigation.
import { NavLink } from 'react-router';
import { Tabs } from '../../ui/page.js';

export const AccountTabs = () => (
  <Tabs label="Account">
    <NavLink end to="/account">
      Profile and password
    </NavLink>
    <NavLink to="/account/keys">API keys</NavLink>
    <NavLink to="/account/quota">Daily quota</NavLink>
  </Tabs>
);
