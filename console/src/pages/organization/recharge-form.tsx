// Recharging an organization's wallet (a platform Admin: recharging creates money). One small component on
// purpose: organization Admins redeem top-up codes instead, with the form beside it (redeem-form.tsx).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiData } from '../../api/http.js';
import { formatMoney } from '../../format.js';
import { Field } from '../../ui/field.js';
import { FormError, Notice } from '../../ui/status.js';
import { type WalletRecord, walletKeys } from './wallet-api.js';

export function RechargeForm({ organizationId, label }: { organizationId: string; label?: string }) {
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  // One key per intended recharge: a double click or a retried request cannot charge twice.
  const [idempotencyKey, setKey] = useState(() => crypto.randomUUID());
  const recharge = useMutation({
    mutationFn: () =>
      apiData<WalletRecord>('/api/organization/wallet/recharge', {
        method: 'POST',
        organizationId,
        headers: { 'idempotency-key': idempotencyKey },
        body: { amount, ...(description.trim() ? { description } : {}) },
      }),
    onSuccess: () => {
      setAmount('');
      setDescription('');
      setKey(crypto.randomUUID());
      void client.invalidateQueries({ queryKey: walletKeys.all(organizationId) });
      void client.invalidateQueries({ queryKey: ['admin-organizations'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    recharge.mutate();
  };
  return (
    <form className="row" onSubmit={submit} aria-label={label ?? 'Recharge the wallet'}>
      <Field label="Amount" hint="Up to 6 decimals.">
        {(p) => <input {...p} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
      </Field>
      <Field label="Description">
        {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <button type="submit" className="primary" disabled={recharge.isPending}>
        Recharge
      </button>
      <FormError error={recharge.error} />
      {recharge.data ? <Notice>Recharged: balance now {formatMoney(recharge.data.currentBalance)}.</Notice> : null}
    </form>
  );
}
