// What leaves the process for API keys and quota requests; never the token or its hash, except the one create.
import type { ApiKeyRecord } from '../../../shared/identity/api-keys.js';
import type { QuotaRequest } from '../../../shared/identity/quota-requests.js';
import { microsToNumber } from '../../../shared/wallet/money.js';
import { withoutNulls } from '../../http/json.js';

export function presentApiKey(key: ApiKeyRecord) {
  return withoutNulls({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    projectId: key.projectId,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsed,
    usage: key.usage,
    gatewayUsage: key.gatewayUsage && {
      today: key.gatewayUsage.today,
      total: key.gatewayUsage.total,
      spentToday: microsToNumber(key.gatewayUsage.spentTodayMicros),
      spentTotal: microsToNumber(key.gatewayUsage.spentTotalMicros),
    },
  });
}

export function presentQuotaRequest(request: QuotaRequest) {
  return withoutNulls({
    id: request.id,
    requestedQuota: request.requestedQuota,
    reason: request.reason,
    status: request.status,
    createdAt: request.createdAt,
    decidedAt: request.decidedAt,
  });
}
