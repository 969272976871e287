// Refunding (part of) a settled consumption, once: platform Admins only.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { FormError } from '../../ui/status.js';
import type { WalletRecord } from './wallet-api.js';

export function RefundForm({
  record,
  organizationId,
  onDone,
}: {
  record: WalletRecord;
  organizationId: string;
  onDone?: () => void;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const refund = useMutation({
    mutationFn: () =>
      apiData<WalletRecord>(apiPath`/api/organization/wallet/records/${record.id}/refund`, {
        method: 'POST',
        organizationId,
        body: { reason, ...(amount.trim() ? { amount } : {}) },
      }),
    onSuccess: () => {
      setOpen(false);
      void client.invalidateQueries({ queryKey: ['wallet', organizationId] });
      void client.invalidateQueries({ queryKey: ['admin-records', organizationId] });
      void client.invalidateQueries({ queryKey: ['admin-organizations'] });
      onDone?.();
    },
  });
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Refund
      </button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    refund.mutate();
  };
  const id = record.id.slice(0, 8);
  return (
    <form className="row" onSubmit={submit} aria-label={`Refund record ${id}`}>
      <input
        aria-label={`Refund amount for ${id} (empty: all of ${record.amount})`}
        placeholder={`${record.amount}`}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <input
        aria-label={`Refund reason for ${id}`}
        placeholder="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" disabled={refund.isPending}>
        Confirm refund
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <FormError error={refund.error} />
    </form>
  );
}
