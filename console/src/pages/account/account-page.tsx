// The signed-in account: name, e-mail, roles; changing the name and the password.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/http.js';
import { ME_KEY, type Me, useMe } from '../../session/session.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Notice } from '../../ui/status.js';
import { AccountTabs } from './account-tabs.js';

function ProfileForm({ me }: { me: Me }) {
  const client = useQueryClient();
  const [name, setName] = useState(me.name);
  const save = useMutation({
    mutationFn: () => api<Me>('/api/v1/auth/me', { method: 'PUT', body: { name } }),
    onSuccess: (updated) => client.setQueryData(ME_KEY, updated),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="stack narrow" onSubmit={submit} aria-label="Profile">
      <h2>Profile</h2>
      <Field label="Name">{(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <FormError error={save.error} />
      {save.isSuccess ? <Notice>Saved.</Notice> : null}
      <button type="submit" disabled={save.isPending}>
        Save profile
      </button>
    </form>
  );
}

function PasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [repeat, setRepeat] = useState('');
  const change = useMutation({
    mutationFn: () =>
      api<{ changed: boolean }>('/api/v1/auth/me/password', { method: 'POST', body: { currentPassword, newPassword } }),
    onSuccess: () => {
      setCurrent('');
      setNew('');
      setRepeat('');
    },
  });
  const mismatch = repeat !== '' && repeat !== newPassword ? 'The two new passwords differ.' : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!mismatch) change.mutate();
  };
  return (
    <form className="stack narrow" onSubmit={submit} aria-label="Password">
      <h2>Password</h2>
      <Field label="Current password">
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
        )}
      </Field>
      <Field label="New password" hint="At least 10 characters. Your other sessions are signed out.">
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
          />
        )}
      </Field>
      <Field label="New password again" error={mismatch}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        )}
      </Field>
      <FormError error={change.error} />
      {change.isSuccess ? <Notice>Password changed.</Notice> : null}
      <button type="submit" disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}

export function AccountPage() {
  const me = useMe().data;
  if (!me) return null;
  return (
    <Page title="Account">
      <AccountTabs />
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{me.email}</dd>
        <dt>Roles</dt>
        <dd>{me.roles.length ? me.roles.join(', ') : 'none'}</dd>
      </dl>
      <div className="grid2">
        <ProfileForm me={me} />
        <PasswordForm />
      </div>
    </Page>
  );
}
