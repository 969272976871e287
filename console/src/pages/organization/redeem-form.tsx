// Redeeming a top-up code a platform Admin issued: how an organization's Admins add money to its wallet. The answer
// says what was credited; redeeming a code this wallet already took credits nothing and says so.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiResponse, type Envelope } from '../../api/http.js';
import { formatMoney, formatTime } from '../../format.js';
import { Field } from '../../ui/field.js';
import { FormError, Notice } from '../../ui/status.js';
import { type WalletRecord, walletKeys } from './wallet-api.js';

export function RedeemForm({ organizationId, currency }: { organizationId: string; currency: string }) {
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const redeem = useMutation({
    mutationFn: async () => {
      const { status, body } = await apiResponse<Envelope<WalletRecord>>('/api/organization/wallet/redeem', {
        method: 'POST',
        organizationId,
        body: { code },
      });
      // 201: redeemed now; 200: this organization redeemed it before, and the answer is that earlier Recharge.
      return { record: body.data, earlier: status === 200 };
    },
    onSuccess: ({ earlier }) => {
      if (earlier) return;
      setCode('');
      void client.invalidateQueries({ queryKey: walletKeys.all(organizationId) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    redeem.mutate();
  };
  const done = redeem.data;
  const earlier = done?.earlier
    ? new Error(
        `This code was already redeemed into this wallet (${formatTime(done.record.createdAt)}, ` +
          `${formatMoney(done.record.amount, currency)}); nothing more was credited.`,
      )
    : undefined;
  return (
    <form className="row" onSubmit={submit} aria-label="Redeem a top-up code">
      <Field label="Top-up code" hint="As issued (OTC-…); letter case, spaces and hyphens do not matter.">
        {(p) => (
          <input
            {...p}
            className="code-input"
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="primary" disabled={redeem.isPending}>
        Redeem
      </button>
      <FormError error={redeem.error ?? earlier} />
      {done && !done.earlier ? (
        <Notice>
          Credited {formatMoney(done.record.amount, currency)}: balance now{' '}
          {formatMoney(done.record.currentBalance, currency)}.
        </Notice>
      ) : null}
    </form>
  );
}
