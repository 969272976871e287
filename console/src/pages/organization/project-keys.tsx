// The signed-in account's API keys bound to one project (the API lists an account's own keys only, so another
// member's keys for the project are theirs to see): name, prefix, created, use, last used; disable, enable, delete.
import { Link } from 'react-router';
import { DataTable } from '../../ui/data-table.js';
import { FormError, Loading } from '../../ui/status.js';
import { KeyRow, keyColumns, useApiKeys } from '../account/api-key-rows.js';

export function ProjectKeys({ projectId }: { projectId: string }) {
  const keys = useApiKeys();
  return (
    <section className="panel">
      <h2>Your API keys for this project</h2>
      <p className="muted">
        The keys you made for this project's gateway calls; each member sees only their own.{' '}
        <Link to={`/account/keys?project=${projectId}`}>Make an API key for this project</Link>
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
