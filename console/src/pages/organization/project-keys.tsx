// A project's API keys. Its Owner and the organization's Admins see every key bound to it, whoever made it, and may
// revoke any (project-all-keys.tsx); any other member sees the keys they made for it (the API lists an account's own
// keys only): name, prefix, created, use, last used; disable, enable, delete.
import { Link } from 'react-router';
import { DataTable } from '../../ui/data-table.js';
import { FormError, Loading } from '../../ui/status.js';
import { KeyRow, keyColumns, useApiKeys } from '../account/api-key-rows.js';
import { ProjectAllKeys } from './project-all-keys.js';

export function ProjectKeys(props: { projectId: string; organizationId: string; canManage: boolean | undefined }) {
  // Undecided until the project's members (who is its Owner) have arrived: neither table flashes by.
  if (props.canManage === undefined) return <Loading />;
  if (props.canManage) return <ProjectAllKeys projectId={props.projectId} organizationId={props.organizationId} />;
  return <OwnProjectKeys projectId={props.projectId} />;
}

function OwnProjectKeys({ projectId }: { projectId: string }) {
  const keys = useApiKeys();
  return (
    <section className="panel">
      <h2>Your API keys for this project</h2>
      <p className="muted">
        The keys you made for this project's gateway calls; the project's Owner and the organization's Admins see
        everyone's. <Link to={`/account/keys?project=${projectId}`}>Make an API key for this project</Link>
      </p>
      {keys.isPending ? <Loading /> : null}
      <FormError error={keys.error} />
      <DataTable
        label="Your API keys for this project"
        columns={keyColumns(false)}
        rows={keys.data?.filter((k) => k.projectId === projectId)}
        empty="You have no key for this project yet."
      >
        {(k) => <KeyRow key={k.id} apiKey={k} withProject={false} />}
      </DataTable>
    </section>
  );
}
