// Inviting one person by e-mail address (organization Admins): an invite token bound to that address (only it may
// join with it), single-use, valid seven days, its link shown once. ockhub sends no e-mail: the Admin sends the link.
import { type FormEvent, useState } from 'react';
import { ShownOnce } from '../../ui/copy-button.js';
import { Field } from '../../ui/field.js';
import { FormError, Notice } from '../../ui/status.js';
import { joinLink, useIssueInvite } from './invite-tokens.js';
import { type InviteRole, RoleField } from './role-field.js';

export function EmailInvite({ organizationId }: { organizationId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('Member');
  const issue = useIssueInvite(organizationId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    issue.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };
  const issued = issue.data;
  return (
    <section className="panel">
      <h2>Invite by e-mail</h2>
      {/* noValidate: a bad address gets the API's own answer on the page, the same in every browser. */}
      <form className="row" onSubmit={submit} aria-label="Invite by e-mail" noValidate>
        <Field label="E-mail address" hint="Only this address can join with the invite: once, within 7 days.">
          {(p) => (
            <input {...p} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <RoleField value={role} onChange={setRole} />
        <button type="submit" className="primary" disabled={issue.isPending || !email.trim()}>
          Invite
        </button>
      </form>
      <FormError error={issue.error} />
      {issued ? (
        <>
          <Notice>
            Invite for {issued.email} made, as {issued.role === 'Admin' ? 'an Admin' : 'a Member'}. ockhub sends no
            e-mail: send them this link.
          </Notice>
          <ShownOnce
            label={`Invite link for ${issued.email}`}
            value={joinLink(issued.token)}
            onDone={() => issue.reset()}
          />
        </>
      ) : null}
    </section>
  );
}
