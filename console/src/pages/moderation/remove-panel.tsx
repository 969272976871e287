// A published item taken off the hub by a moderator (POST /api/v1/moderation/{type}/{id}/remove), with the reason
// its publisher reads; asked twice. Reached from the review page, which the reports list links for every report.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Field } from '../../ui/field.js';
import { FormError } from '../../ui/status.js';
import type { ItemType } from '../hub/hub-api.js';
import type { Mutation } from '../publisher/publisher-api.js';

export function RemovePanel(props: {
  type: ItemType;
  id: string;
  name: string;
  onRemoved: (name: string, reportsResolved: number) => void;
}) {
  const { type, id, name, onRemoved } = props;
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [resolveReports, setResolveReports] = useState(false);
  const [missing, setMissing] = useState<string>();
  const field = useRef<HTMLTextAreaElement>(null);
  const remove = useMutation({
    mutationFn: () =>
      api<Mutation & { reportsResolved?: string[] }>(apiPath`/api/v1/moderation/${type}/${id}/remove`, {
        method: 'POST',
        body: { reason, ...(resolveReports ? { resolveReports: true } : {}) },
      }),
    onSuccess: (removed) => {
      onRemoved(name, removed.reportsResolved?.length ?? 0);
      void client.invalidateQueries({ queryKey: ['review', type, id] });
      void client.invalidateQueries({ queryKey: ['item', type] });
      void client.invalidateQueries({ queryKey: ['reports'] });
    },
  });
  const confirm = () => {
    if (!reason.trim()) {
      setMissing('A removal needs a reason: its publisher reads it.');
      field.current?.focus();
      return;
    }
    setMissing(undefined);
    remove.mutate();
  };
  return (
    <section className="panel stack" aria-label="Remove from the hub">
      <h2>Remove from the hub</h2>
      <p className="muted">
        Takes it off the hub, its search and the MCP Registry API at once. Its versions stay; its publisher reads your
        reason in its history, and a new version they submit comes back through review.
      </p>
      <Field label="Reason for removal" hint="Required; the publisher reads it." error={missing}>
        {(p) => <textarea {...p} ref={field} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <label className="row">
        <input type="checkbox" checked={resolveReports} onChange={(e) => setResolveReports(e.target.checked)} />
        Also resolve its open reports, with this reason as their resolution
      </label>
      <div>
        <ConfirmButton
          label="Remove from the hub"
          confirmLabel="Remove it now"
          disabled={remove.isPending}
          onConfirm={confirm}
        />
      </div>
      <FormError error={remove.error} />
    </section>
  );
}
