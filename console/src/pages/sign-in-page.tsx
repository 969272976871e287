// Signing in: e-mail and password for the console's HttpOnly session cookie; back to where the person was going.
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMe, useSignIn } from '../session/session.js';
import { Field } from '../ui/field.js';
import { Page } from '../ui/page.js';
import { FormError } from '../ui/status.js';

/** Only a path of this console: never an absolute URL (an open redirect). */
const safeNext = (next: string | null) => (next?.startsWith('/') && !next.startsWith('//') ? next : '/account');

export function SignInPage() {
  const [params] = useSearchParams();
  const me = useMe();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const next = safeNext(params.get('next'));
  if (me.data) return <Navigate to={next} replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password }, { onSuccess: () => navigate(next, { replace: true }) });
  };
  return (
    <Page title="Sign in">
      <form className="stack narrow" onSubmit={submit} aria-label="Sign in">
        <Field label="E-mail">
          {(p) => (
            <input
              {...p}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <FormError error={signIn.error} />
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </Page>
  );
}
