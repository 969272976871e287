// Inviting many people at once: a CSV with the header `email,name,role` (up to 500 rows); the API answers with one
// line per row (Success with the invite link, shown this once, Failed with its reason, or Duplicate).
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { Envelope } from '../../api/http.js';
import { uploadFile } from '../../api/upload.js';
import { formatCount, formatCountOf } from '../../format.js';
import { CopyButton } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { FormError, StatusBadge } from '../../ui/status.js';
import { joinLink } from './invite-tokens.js';

type BulkResult = {
  id: string;
  totalCount: number;
  successCount: number;
  /** Failed and duplicate rows together. */
  failureCount: number;
  duplicateCount: number;
  records: {
    row: number;
    email: string;
    name: string;
    role: string;
    status: string;
    error?: string;
    inviteUrl?: string;
  }[];
};

/** The link to send to one invitee: shown here once (the API stores no token). */
function InviteLink({ token }: { token: string }) {
  const link = joinLink(token);
  return (
    <span className="row">
      <code className="muted">{link}</code>
      <CopyButton text={link} label="Copy link" />
    </span>
  );
}

export function BulkInvite({ organizationId }: { organizationId: string }) {
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: (csv: File) =>
      uploadFile<Envelope<BulkResult>>('/api/organization/bulk-invite', csv, { organizationId }).then((r) => r.data),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate(file);
  };
  const result = upload.data;
  return (
    <section className="panel">
      <h2>Invite from a CSV file</h2>
      <form className="row" onSubmit={submit} aria-label="Bulk invite">
        <Field label="CSV file" hint="Header row: email,name,role (role Admin or Member); at most 500 rows.">
          {(p) => (
            <input {...p} type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          )}
        </Field>
        <button type="submit" disabled={!file || upload.isPending}>
          Invite everyone
        </button>
      </form>
      <FormError error={upload.error} />
      {result ? (
        <>
          <p role="status">
            {`${formatCountOf(result.totalCount, 'row')}: ${formatCount(result.successCount)} invited, ${formatCount(result.failureCount - result.duplicateCount)} failed, ${formatCountOf(result.duplicateCount, 'duplicate')}.`}
          </p>
          <DataTable
            label="Bulk invite report"
            columns={['Row', 'E-mail', 'Name', 'Role', 'Result', 'Reason or link']}
            rows={result.records}
            empty="The file had no rows."
          >
            {(r) => (
              <tr key={r.row}>
                <td>{r.row}</td>
                <td className="email">{r.email}</td>
                <td>{r.name}</td>
                <td>{r.role}</td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>{r.error ?? (r.inviteUrl ? <InviteLink token={r.inviteUrl.split('/').pop() ?? ''} /> : '')}</td>
              </tr>
            )}
          </DataTable>
        </>
      ) : null}
    </section>
  );
}
