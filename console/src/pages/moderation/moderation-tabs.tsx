// The moderation area's sub-navigation.
import { NavLink } from 'react-router';
import { Tabs } from '../../ui/page.js';

export const ModerationTabs = () => (
  <Tabs label="Moderation">
    <NavLink end to="/moderation">
      Review queue
    </NavLink>
    <NavLink to="/moderation/reports">Reports</NavLink>
  </Tabs>
);
