// The organization role an invite gives (invite by e-mail, invite tokens): one select, one set of labels, and a
// description of what each role may do, so both forms read and behave alike.
import { Field } from '../../ui/field.js';

export type InviteRole = 'Member' | 'Admin';

const ROLE_HINT = 'A Member uses the projects; an Admin also runs the organization.';

export function RoleField(props: { value: InviteRole; onChange: (role: InviteRole) => void }) {
  return (
    <Field label="Role" hint={ROLE_HINT}>
      {(p) => (
        <select {...p} value={props.value} onChange={(e) => props.onChange(e.target.value as InviteRole)}>
          <option value="Member">Member</option>
          <option value="Admin">Admin</option>
        </select>
      )}
    </Field>
  );
}
