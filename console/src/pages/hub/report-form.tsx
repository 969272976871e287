// Reporting an item (signed in): a reason and details; the API keeps one open report per account and item.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { useMe } from '../../session/session.js';
import { Field } from '../../ui/field.js';
import { FormError, Notice } from '../../ui/status.js';
import type { ItemType } from './hub-api.js';

const reasons = ['Malicious or unsafe', 'Broken or misleading', 'Spam', 'Copyright or license', 'Other'];

export function ReportForm({ type, slug }: { type: ItemType; slug: string }) {
  const me = useMe();
  const location = useLocation();
  const [reason, setReason] = useState(reasons[0] as string);
  const [detail, setDetail] = useState('');
  const report = useMutation({
    mutationFn: () =>
      api<{ id: string; status: string }>(apiPath`/api/v1/${type}/${slug}/report`, {
        method: 'POST',
        body: { reason, ...(detail.trim() ? { detail } : {}) },
      }),
  });
  if (!me.data) {
    return (
      <p className="muted">
        <Link to={`/sign-in?next=${encodeURIComponent(location.pathname)}`}>Sign in</Link> to report this item.
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    report.mutate();
  };
  if (report.data) {
    return (
      <Notice>
        Thank you: report {report.data.id.slice(0, 8)} is {report.data.status}. A moderator will look at it.
      </Notice>
    );
  }
  return (
    <form onSubmit={submit} className="stack" aria-label="Report this item">
      <Field label="Reason">
        {(p) => (
          <select {...p} value={reason} onChange={(e) => setReason(e.target.value)}>
            {reasons.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Details (optional)">
        {(p) => (
          <textarea {...p} rows={3} maxLength={4000} value={detail} onChange={(e) => setDetail(e.target.value)} />
        )}
      </Field>
      <FormError error={report.error} />
      <button type="submit" disabled={report.isPending}>
        Send report
      </button>
    </form>
  );
}
