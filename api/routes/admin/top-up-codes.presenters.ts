// What leaves the process for top-up codes: the code itself only in the answer that issues it.
import { microsToNumber } from '../../../shared/wallet/money.js';
import { type ListedTopUpCode, statusOf, type TopUpCode } from '../../../shared/wallet/top-up-codes.js';
import { withoutNulls } from '../../http/json.js';

export function presentTopUpCode(code: TopUpCode, recordId: string | null = null) {
  return withoutNulls({
    id: code.id,
    batchId: code.batchId,
    codeHint: code.codeHint,
    amount: microsToNumber(code.amount),
    currency: 'USD',
    status: statusOf(code),
    description: code.description,
    expiresAt: code.expiresAt,
    createdAt: code.createdAt,
    createdBy: code.createdBy,
    revokedAt: code.revokedAt,
    redeemedAt: code.redeemedAt,
    redeemedBy: code.redeemedBy,
    organizationId: code.organizationId,
    recordId,
  });
}

export const presentListedTopUpCode = ({ code, recordId }: ListedTopUpCode) => presentTopUpCode(code, recordId);

export const presentIssuedTopUpCode = ({ record, code }: { record: TopUpCode; code: string }) => ({
  ...presentTopUpCode(record),
  code,
});
