// A project's members: the list for every member of the organization; for the project's Owner or an organization
// Admin, adding a member of the organization (as Owner or Member), changing a role and removing one (asked twice).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { useMe } from '../../session/session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Notice } from '../../ui/status.js';
import { MemberSearchField, searchHint, useMemberSearch } from './member-search.js';

type ProjectRole = 'Owner' | 'Member';
export type ProjectMember = { userId: string; email: string; name: string; role: ProjectRole; addedAt: string };

/** One page of the organization's members to choose from: the API's largest page. */
const CHOICES_PAGE_SIZE = 100;
/** Above this many to choose from, a search box finds members by name or e-mail address. */
const FILTER_ABOVE = 5;

const membersKey = (projectId: string) => ['project-members', projectId];

export function useProjectMembers(projectId: string, organizationId: string) {
  return useQuery({
    queryKey: membersKey(projectId),
    queryFn: () => apiData<ProjectMember[]>(apiPath`/api/projects/${projectId}/members`, { organizationId }),
  });
}

/**
 * Whether the signed-in account manages the project (an organization Admin, or the project's Owner, known by its
 * members); `decided` is false while the members load for someone who is not an Admin.
 */
export function useManagesProject(projectId: string, organizationId: string, isAdmin: boolean) {
  const me = useMe().data;
  const members = useProjectMembers(projectId, organizationId);
  const isOwner = (members.data ?? []).some((m) => m.userId === me?.id && m.role === 'Owner');
  return { manager: isAdmin || isOwner, decided: isAdmin || Boolean(members.data) || Boolean(members.error) };
}

function useChangeMember(projectId: string, organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (c: { member: { userId: string; name: string }; role?: ProjectRole }) =>
      c.role
        ? apiData(apiPath`/api/projects/${projectId}/members`, {
            method: 'POST',
            organizationId,
            body: { userId: c.member.userId, role: c.role },
          })
        : apiData(apiPath`/api/projects/${projectId}/members/${c.member.userId}`, { method: 'DELETE', organizationId }),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey(projectId) }),
  });
}

const asRole = (role: ProjectRole) => (role === 'Owner' ? 'an Owner' : 'a Member');

function AddMemberForm(props: {
  organizationId: string;
  members: ProjectMember[];
  change: ReturnType<typeof useChangeMember>;
}) {
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<ProjectRole>('Member');
  const search = useMemberSearch(props.organizationId, CHOICES_PAGE_SIZE, 'choices');
  const choices = search.list;
  const inProject = new Set(props.members.map((m) => m.userId));
  const found = choices.data?.data ?? [];
  const offered = found.filter((m) => !inProject.has(m.userId));
  // The search box comes once there are more than five to choose from, and stays while the form is shown (a search
  // that narrows the list must not take its own box away).
  const many =
    !search.q && search.settled && (offered.length > FILTER_ABOVE || (choices.data?.total ?? 0) > CHOICES_PAGE_SIZE);
  const [filterable, setFilterable] = useState(false);
  useEffect(() => {
    if (many) setFilterable(true);
  }, [many]);
  // Nothing is chosen from rows that answer an earlier search; the one member a search leaves is chosen, so typing
  // and Enter adds them.
  const chosen = !search.settled
    ? undefined
    : offered.length === 1 && search.q
      ? offered[0]
      : offered.find((m) => m.userId === userId);
  if (
    choices.data &&
    !search.text &&
    !search.q &&
    offered.length === 0 &&
    (choices.data.total ?? 0) <= CHOICES_PAGE_SIZE
  ) {
    return (
      <p className="muted">
        Every member of the organization is in this project. <Link to="/org/members">Invite more people</Link>.
      </p>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen)
      props.change.mutate(
        { member: chosen, role },
        {
          onSuccess: () => {
            setUserId('');
            search.setText('');
          },
        },
      );
  };
  // Those on this page already in the project are not offered, nor counted.
  const matches = (choices.data?.total ?? 0) - (found.length - offered.length);
  return (
    <>
      <form className="row" onSubmit={submit} aria-label="Add a member to the project">
        {filterable ? (
          <MemberSearchField
            text={search.text}
            onText={search.setText}
            hint={searchHint(search, matches, 'Any part of a name or e-mail address.')}
          />
        ) : null}
        <Field label="Member of the organization">
          {(p) => (
            <select {...p} value={chosen?.userId ?? ''} onChange={(e) => setUserId(e.target.value)}>
              <option value="">
                {choices.data && offered.length === 0
                  ? search.q
                    ? 'No member matches'
                    : 'Everyone on this page is in the project'
                  : 'Choose a member'}
              </option>
              {offered.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name} ({m.email})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Project role">
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value as ProjectRole)}>
              <option>Member</option>
              <option>Owner</option>
            </select>
          )}
        </Field>
        <button type="submit" className="primary" disabled={!chosen || props.change.isPending}>
          Add to project
        </button>
      </form>
      <Pager
        label="Organization members: pages"
        page={search.page}
        pageSize={CHOICES_PAGE_SIZE}
        total={choices.data?.total}
        onPage={search.setPage}
      />
      <FormError error={choices.error} />
    </>
  );
}

export function ProjectMembers(props: {
  projectId: string;
  organizationId: string;
  canManage: boolean;
  members: ReturnType<typeof useProjectMembers>;
}) {
  const change = useChangeMember(props.projectId, props.organizationId);
  const members = props.members.data;
  const done = change.isSuccess ? change.variables : undefined;
  return (
    <section className="panel">
      <h2>Project members</h2>
      {props.canManage && members ? (
        <AddMemberForm organizationId={props.organizationId} members={members} change={change} />
      ) : null}
      <FormError error={props.members.error ?? change.error} />
      {done ? (
        <Notice>
          {done.role
            ? `${done.member.name} is now ${asRole(done.role)} of this project.`
            : `${done.member.name} was removed from this project.`}
        </Notice>
      ) : null}
      <DataTable
        label="Project members"
        columns={['Name', 'E-mail', 'Role', 'Added', ...(props.canManage ? [{ label: 'Actions', hidden: true }] : [])]}
        rows={members}
        empty="Nobody is a member of this project yet."
      >
        {(m) => (
          <tr key={m.userId}>
            <td>{m.name}</td>
            <td className="email">{m.email}</td>
            <td>
              {props.canManage ? (
                <select
                  aria-label={`Project role of ${m.email}`}
                  value={m.role}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ member: m, role: e.target.value as ProjectRole })}
                >
                  <option>Owner</option>
                  <option>Member</option>
                </select>
              ) : (
                m.role
              )}
            </td>
            <td>{formatTime(m.addedAt)}</td>
            {props.canManage ? (
              <td>
                <ConfirmButton
                  label="Remove"
                  confirmLabel={`Remove ${m.name} from the project`}
                  disabled={change.isPending}
                  onConfirm={() => change.mutate({ member: m })}
                />
              </td>
            ) : null}
          </tr>
        )}
      </DataTable>
    </section>
  );
}
