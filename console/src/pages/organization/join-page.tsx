// Joining an organization by invite link: what the invite is for, then accept it signed in, or create an account
// with it (and be signed in).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCountOf, formatTime } from '../../format.js';
import { ORGANIZATIONS_KEY, useOrganization } from '../../session/organization.js';
import { useMe, useSignIn } from '../../session/session.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading } from '../../ui/status.js';

type Preview = {
  organizationId: string;
  organizationName: string;
  role: string;
  email?: string;
  expiresAt: string;
  remainingUses: number;
};
type Accepted = { organizationId: string; organizationName: string; role: string; accountCreated: boolean };

export function JoinPage() {
  const { token = '' } = useParams();
  const me = useMe();
  const client = useQueryClient();
  const { select } = useOrganization();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const preview = useQuery({
    queryKey: ['invite', token],
    queryFn: () => apiData<Preview>(apiPath`/api/organization/invites/${token}`),
    retry: false,
  });
  const done = (accepted: Accepted) => {
    select(accepted.organizationId);
    void client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
    navigate('/org');
  };
  const accept = useMutation({
    mutationFn: (body: object) =>
      apiData<Accepted>(apiPath`/api/organization/invites/${token}/accept`, { method: 'POST', body }),
    onSuccess: (accepted, body) => {
      if (me.data) return done(accepted);
      signIn.mutate(body as { email: string; password: string }, { onSuccess: () => done(accepted) });
    },
  });
  const register = (e: FormEvent) => {
    e.preventDefault();
    accept.mutate({ email: preview.data?.email ?? email, name, password });
  };
  if (preview.isPending || me.isPending) return <Loading />;
  if (!preview.data) {
    return (
      <Page title="Invite">
        <FormError error={preview.error} />
      </Page>
    );
  }
  const p = preview.data;
  return (
    <Page title={`Join ${p.organizationName}`}>
      <p>
        You are invited as <strong>{p.role}</strong>. The invite is valid until {formatTime(p.expiresAt)} (
        {formatCountOf(p.remainingUses, 'use')} left).
      </p>
      <FormError error={accept.error ?? signIn.error} />
      {me.data ? (
        <button type="button" className="primary" onClick={() => accept.mutate({})} disabled={accept.isPending}>
          Join as {me.data.email}
        </button>
      ) : (
        <form className="stack narrow" onSubmit={register} aria-label="Create an account and join">
          <p>
            Already have an account? <Link to={`/sign-in?next=${encodeURIComponent(`/join/${token}`)}`}>Sign in</Link>{' '}
            first.
          </p>
          <Field label="E-mail">
            {(f) => (
              <input
                {...f}
                type="email"
                value={p.email ?? email}
                readOnly={Boolean(p.email)}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field label="Name">{(f) => <input {...f} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
          <Field label="Password" hint="At least 10 characters.">
            {(f) => (
              <input
                {...f}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="primary" disabled={accept.isPending}>
            Create account and join
          </button>
        </form>
      )}
    </Page>
  );
}
