// Request bodies and queries of the wallet routes; money fields accept a JSON number or decimal string, ≤ 6 decimals.
import { z } from 'zod';
import { walletRecordType } from '../../../shared/db/schema/index.js';
import { inCalendar, lastInstant, outsideCalendar } from '../../../shared/validation/calendar.js';
import { moneyInput } from '../../../shared/wallet/money.js';

export const rechargeBody = z.object({
  amount: moneyInput({ positive: true }),
  description: z.string().trim().max(500).optional(),
});

/** A top-up code as typed: letter case, spaces and hyphens do not matter. */
export const redeemBody = z.object({ code: z.string().trim().min(1).max(100) });

const DAY_MS = 86_400_000;

/** A UTC day (`2026-11-24`, the whole day) or an instant with its offset; `from` inclusive, `to` exclusive. */
const periodBound = (edge: 'from' | 'to') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .transform((v) => {
      if (v.length > 10) return new Date(v);
      const start = new Date(`${v}T00:00:00.000Z`);
      if (edge === 'from') return start;
      // The day's end; 9999-12-31's would be the year 10000, so that day ends at the calendar's last instant.
      return new Date(Math.min(start.getTime() + DAY_MS, lastInstant.getTime()));
    })
    .refine(inCalendar, { message: outsideCalendar });

/** The filters shared by the record lists and the CSV export. */
export const recordFilters = {
  type: z.enum(walletRecordType.enumValues).optional(),
  from: periodBound('from').optional(),
  to: periodBound('to').optional(),
};

/** A refinement for a query with both bounds: `from` before `to`. */
export const periodInOrder: [(q: { from?: Date; to?: Date }) => boolean, { message: string; path: string[] }] = [
  (q) => !q.from || !q.to || q.from < q.to,
  { message: '"from" must be before "to"', path: ['from'] },
];

const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
};

export const recordsQuery = z.object({ ...paging, ...recordFilters }).refine(...periodInOrder);

export const recordExportQuery = z.object(recordFilters).refine(...periodInOrder);

export const historyQuery = z.object(paging);

export const balanceHistoryQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(366).default(30),
    interval: z.enum(['hour', 'day']).default('day'),
  })
  .refine((q) => q.interval === 'day' || q.days <= 31, {
    message: 'hourly points cover at most 31 days',
    path: ['days'],
  });

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
/**
 * Visible ASCII, spaces and tabs, nothing around: a line break would let a value inject another header; a character
 * above U+00FF is refused by undici at send time (so every attempt of every alert failed), and one of U+0080–U+00FF
 * goes out as a Latin-1 byte that a receiver reads as something else (review of 2026-11-27, second round); leading or
 * trailing whitespace is not part of a header value on the wire.
 */
const isHeaderText = (value: string) => /^[\t\x20-\x7e]*$/.test(value) && value.trim() === value;
const headerValue = z.string().max(1024).refine(isHeaderText, {
  message: 'must be visible ASCII characters, spaces and tabs, with no whitespace at either end',
});

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
