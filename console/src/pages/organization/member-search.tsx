// Finding a member of the organization: what is typed goes to the API's member list as `q` (any part of a name or an
// e-mail address, case-insensitive) once typing pauses, so every member is found however many there are, not only
// those on a page already loaded. Used by the members page and a project's "Add a member" form.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, type Envelope } from '../../api/http.js';
import { formatCount } from '../../format.js';
import { Field } from '../../ui/field.js';

export type OrganizationMember = {
  userId: string;
  email: string;
  name: string;
  role: 'Admin' | 'Member';
  joinedAt: string;
};

/** How long typing must pause before the API is asked: one request per pause, not one per key. */
export const SEARCH_PAUSE_MS = 300;

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * One page of the organization's members matching what is typed. `asked` is the search the shown rows answer;
 * `settled` is false while typing has not paused yet or the answer to the latest search has not arrived (the rows
 * shown are then the previous search's, kept to avoid a flash of an empty list).
 */
export function useMemberSearch(organizationId: string, pageSize: number, purpose: string) {
  const [text, setText] = useState('');
  const q = useSettled(text.trim(), SEARCH_PAUSE_MS);
  // The page belongs to its search: a new search starts on its first page.
  const [paged, setPaged] = useState({ q, page: 1 });
  const page = paged.q === q ? paged.page : 1;
  const setPage = useCallback((next: number) => setPaged({ q, page: next }), [q]);
  const list = useQuery({
    queryKey: ['members', organizationId, purpose, q, page, pageSize],
    queryFn: () =>
      api<Envelope<OrganizationMember[]>>('/api/organization/members', {
        organizationId,
        query: { page, size: pageSize, q },
      }),
    placeholderData: keepPreviousData,
  });
  const settled = text.trim() === q && !list.isPlaceholderData;
  return { text, setText, q, page, setPage, list, settled };
}

/** The "Find a member" box; `hint` says what the search found. */
export function MemberSearchField(props: { text: string; onText: (text: string) => void; hint: string }) {
  return (
    <Field label="Find a member" hint={props.hint}>
      {(p) => (
        <input
          {...p}
          type="search"
          autoComplete="off"
          maxLength={254}
          value={props.text}
          onChange={(e) => props.onText(e.target.value)}
        />
      )}
    </Field>
  );
}

/** What the box's hint says: how many match once the answer is in, "Searching…" until then. */
export function searchHint(search: { q: string; settled: boolean }, matches: number, idle: string): string {
  if (!search.q && search.settled) return idle;
  if (!search.settled) return 'Searching…';
  if (matches === 0) return 'No member matches.';
  return matches === 1 ? '1 member matches.' : `${formatCount(matches)} members match.`;
}
