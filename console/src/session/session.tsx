// Who is signed in: the account behind the HttpOnly session cookie (GET /api/v1/auth/me; 401 means nobody), and
// signing in and out through the cookie routes. Page scripts never see a token.
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiError, api } from '../api/http.js';
import { Loading } from '../ui/status.js';

export type Role = 'Publisher' | 'Moderator' | 'Admin';
export type Me = { id: string; name: string; email: string; roles: Role[]; permissions: string[]; isAdmin: boolean };

export const ME_KEY = ['me'] as const;

export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => {
      try {
        return await api<Me>('/api/v1/auth/me');
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export const hasRole = (me: Me | null | undefined, ...roles: Role[]) =>
  Boolean(me && roles.some((r) => me.roles.includes(r)));

/**
 * A different person now: everything cached for the previous one is dropped (reset, not removed, so the pages on
 * screen keep listening and fetch again for the new account).
 */
function switchAccount(client: QueryClient, account: Me | null) {
  client.setQueryData(ME_KEY, account);
  void client.resetQueries({ predicate: (query) => query.queryKey[0] !== ME_KEY[0] });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string }) =>
      api<{ expiresAt: string; account: Me }>('/api/v1/auth/session', { method: 'POST', body: input }),
    onSuccess: ({ account }) => switchAccount(client, account),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('/api/v1/auth/session', { method: 'DELETE' }),
    onSettled: () => switchAccount(client, null),
  });
}

/** Renders its children for a signed-in account (with the role, when one is named); else sends to sign-in. */
export function RequireSignIn({ roles, children }: { roles?: Role[]; children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading />;
  if (!me.data) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`/sign-in?next=${next}`} replace />;
  }
  if (roles && !hasRole(me.data, ...roles)) {
    return (
      <section className="page">
        <h1>Not available</h1>
        <p>This page needs the {roles.join(' or ')} role.</p>
      </section>
    );
  }
  return children;
}
