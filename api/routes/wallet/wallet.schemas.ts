// Request bodies and queries of the wallet routes; money fields accept a JSON number or decimal string, ≤ 6 decimals.
import { z } from 'zod';
import { walletRecordType } from '../../../shared/db/schema/index.js';
import { moneyInput } from '../../../shared/wallet/money.js';

export const rechargeBody = z.object({
  amount: moneyInput({ positive: true }),
  description: z.string().trim().max(500).optional(),
});

export const recordsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(walletRecordType.enumValues).optional(),
});

export const historyQuery = recordsQuery.pick({ page: true, size: true });

export const refundBody = z.object({
  amount: moneyInput({ positive: true }).optional(),
  reason: z.string().trim().min(1).max(500),
});

/** Headers the webhook sets itself or that belong to the connection; a custom header may not replace them. */
const reservedHeaders = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'is not a valid header name')
  .refine((name) => !reservedHeaders.has(name.toLowerCase()) && !name.toLowerCase().startsWith('proxy-'), {
    message: 'is set by ockhub and cannot be replaced',
  });
/** Tab and visible characters only: a line break would let a value inject another header. */
const isHeaderText = (value: string) =>
  [...value].every((ch) => {
    const code = ch.charCodeAt(0);
    return code === 9 || (code >= 32 && code !== 127);
  });
const headerValue = z
  .string()
  .max(1024)
  .refine(isHeaderText, { message: 'must not contain line breaks or control characters' });

export const alertSettingsBody = z.object({
  emailAlertEnabled: z.boolean().optional(),
  maxDailyAlerts: z.number().int().min(0).max(1000).optional(),
  webhookUrl: z
    .union([
      z.literal('').transform(() => null),
      z.null(),
      z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048),
    ])
    .optional(),
  customHeaders: z
    .record(headerName, headerValue)
    .refine((h) => Object.keys(h).length <= 20, { message: 'at most 20 headers' })
    .refine((h) => new Set(Object.keys(h).map((k) => k.toLowerCase())).size === Object.keys(h).length, {
      message: 'names a header twice',
    })
    .optional(),
  messageTemplate: z.string().trim().min(1).max(1000).optional(),
  thresholds: z
    .array(moneyInput({ positive: true }))
    .max(20)
    .optional(),
  rotateWebhookSecret: z.boolean().optional(),
});
