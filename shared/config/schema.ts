// The one description of every setting: names from SPEC section 5, validated once at start.
import { z } from 'zod';

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const url = z.url({ protocol: /^https?$/ });
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), url.optional());
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PORT: port.default(3000),
    PUBLIC_BASE_URL: optionalUrl,
    BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
    GATEWAY_BODY_LIMIT_BYTES: positiveInt.default(32 * 1_048_576),

    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .default('postgres://postgres@127.0.0.1:5432/ockhub'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .default('redis://127.0.0.1:6379/0'),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_{}-]{1,64}$/)
      .default('ockhub'),

    ADMIN_EMAIL: z.email().default('admin@ockhub.local'),
    ADMIN_PASSWORD: z.string().min(10).default('ockhub-admin-dev'),
    SECRET_KEY: z.string().min(16).default('ockhub-development-secret-change-me'),

    WORKER_QUEUES: z.string().default('all'),
    WORKER_STALL_EXIT_MS: positiveInt.default(120_000),
    /** BullMQ job lock (renewed every half of it) and stalled-job check interval: a job whose worker died goes back
     * to its queue within about three times this. */
    WORKER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),

    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    STORAGE_LOCAL_DIR: z.string().default('.data/storage'),
    STORAGE_PUBLIC_BASE_URL: optionalUrl,
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),

    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('ockhub <alerts@ockhub.local>'),
    /** Balance-alert webhooks: attempts per alert and the first retry delay (doubling, with jitter). */
    ALERT_WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    ALERT_WEBHOOK_RETRY_MS: positiveInt.default(1_000),

    OUTBOUND_ALLOWED_HOSTS: list.default([]),
    WEB_BILLING_MULTIPLIER: z.coerce.number().positive().default(1),
    WEB_FETCH_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
    /** Web fetch: total time per page (connect, redirects, body), pages fetched at once per batch, and how long
     * the API waits for a batch before answering 503. */
    WEB_FETCH_PAGE_TIMEOUT_MS: positiveInt.default(10_000),
    WEB_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(20).default(8),
    WEB_FETCH_WAIT_MS: positiveInt.default(45_000),
    CATALOG_READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),

    GITHUB_REPO: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
      .default('ockhub/ockhub'),
    GITHUB_API_URL: url.default('https://api.github.com'),

    VIDEO_POLL_INTERVAL_MS: positiveInt.default(4000),
    VIDEO_TASK_DEADLINE_MS: positiveInt.default(30 * 60_000),

    UPSTREAM_MESSAGES_URL: optionalUrl,
    UPSTREAM_MESSAGES_KEY: z.string().optional(),
    UPSTREAM_VIDEO_URL: optionalUrl,
    UPSTREAM_VIDEO_KEY: z.string().optional(),
    UPSTREAM_VIDEO_KIND: z.enum(['seedance', 'openai']).default('seedance'),
    UPSTREAM_SEARCH_URL: optionalUrl,
    UPSTREAM_SEARCH_KEY: z.string().optional(),
    UPSTREAM_SEARCH_KIND: z.enum(['tavily', 'brave']).default('tavily'),
    MODEL_REGISTRY: z.string().optional(),

    METRICS_TOKEN: z.string().min(16).optional(),
    /** Each worker process serves GET /metrics on this port (0: no endpoint) and address. */
    WORKER_METRICS_PORT: port.default(0),
    WORKER_METRICS_HOST: z
      .string()
      .regex(/^[\w.:-]+$/, 'must be a host name or IP address')
      .default('127.0.0.1'),
    TRUST_PROXY: bool.default(false),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    const required = ['UPSTREAM_MESSAGES_URL', 'UPSTREAM_VIDEO_URL', 'UPSTREAM_SEARCH_URL', 'PUBLIC_BASE_URL'] as const;
    for (const name of required) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
    if (env.SECRET_KEY === 'ockhub-development-secret-change-me') {
      ctx.addIssue({ code: 'custom', path: ['SECRET_KEY'], message: 'must be set to a private value in production' });
    }
  });

export type Env = z.infer<typeof envSchema>;
