// Request bodies and queries of the platform Admin's top-up code routes.
import { z } from 'zod';
import { inCalendar, outsideCalendar } from '../../../shared/validation/calendar.js';
import { moneyInput } from '../../../shared/wallet/money.js';
import {
  MAX_CODE_LIFETIME_DAYS,
  MAX_CODES_PER_BATCH,
  topUpCodeStatuses,
} from '../../../shared/wallet/top-up-code-rules.js';
import { pageParams } from '../catalog/catalog.schemas.js';

export const issueTopUpCodesBody = z.object({
  amount: moneyInput({ positive: true }),
  count: z.number().int().min(1).max(MAX_CODES_PER_BATCH).default(1),
  expiresAt: z.iso
    .datetime({ offset: true })
    .transform((v) => new Date(v))
    .refine(inCalendar, { message: outsideCalendar })
    .refine((d) => d.getTime() <= Date.now() + MAX_CODE_LIFETIME_DAYS * 86_400_000, {
      message: `must be within ${MAX_CODE_LIFETIME_DAYS} days`,
    })
    .optional(),
  description: z.string().trim().min(1).max(200).optional(),
});

export const topUpCodesQuery = z.object({
  status: z.enum(topUpCodeStatuses).optional(),
  batchId: z.uuid().optional(),
  ...pageParams,
});
