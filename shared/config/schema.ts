// The one description of every setting: names from SPEC section 5, validated once at start.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEVELOPMENT_ADMIN_PASSWORD, DEVELOPMENT_SECRET_KEY } from './development-defaults.js';
import { trustProxySetting } from './trust-proxy.js';

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

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `json`: one JSON object per line (log shippers); `pretty`: readable lines for a person at a terminal. */
    LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
    PORT: port.default(3000),
    PUBLIC_BASE_URL: optionalUrl,
    BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
    GATEWAY_BODY_LIMIT_BYTES: positiveInt.default(32 * 1_048_576),
    /** Bytes the large gateway bodies of one API process may claim at once (api/middleware/large-body-budget.ts); 0: no budget. */
    LARGE_BODY_BUDGET_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(128 * 1_048_576),

    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .default('postgres://postgres@127.0.0.1:5432/ockhub'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .default('redis://127.0.0.1:6379/0'),
    /** A Redis Cluster's seed nodes, `host:port,host:port`: set, every connection is a cluster client (REDIS_URL
     * then gives only the credentials and TLS). REDIS_PREFIX must be a hash tag then, e.g. `{ockhub}`. */
    REDIS_CLUSTER_NODES: z
      .string()
      .regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'must be host:port,host:port')
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_{}-]{1,64}$/)
      .default('ockhub'),

    ADMIN_EMAIL: z.email().default('admin@ockhub.local'),
    /** Used only by the seed, to create the Admin; in production it must be set (see development-defaults.ts). */
    ADMIN_PASSWORD: z
      .string()
      .min(10, 'must have at least 10 characters (12 in production, where the seed refuses a shorter one)')
      .default(DEVELOPMENT_ADMIN_PASSWORD),
    SECRET_KEY: z.string().min(16).default(DEVELOPMENT_SECRET_KEY),
    /** The SECRET_KEY before a rotation: a token not found under SECRET_KEY's hash is looked up under this one's and
     * moved to SECRET_KEY's when found (docs/operations.md, "Rotating SECRET_KEY"). Unset outside a rotation. */
    SECRET_KEY_PREVIOUS: z.string().min(16).optional(),
    /** Failed credential checks (login, invite acceptance, password change) allowed per account and per client
     * address within the sliding window before 429; 0 turns that limit off. */
    AUTH_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(0).default(10),
    AUTH_FAILURES_PER_ADDRESS: z.coerce.number().int().min(0).default(50),
    AUTH_FAILURE_WINDOW_MS: z.coerce.number().int().min(100).max(86_400_000).default(900_000),
    /** Accounts one client address may make by accepting invites per sliding hour; 0 turns the limit off. Unset:
     * 20 in production, off elsewhere (local tools and test suites make many accounts from one address). */
    ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).optional(),
    /** Successful sign-ins (login, the console's cookie sign-in) one account may make per sliding hour; 0 turns the
     * limit off. Unset: 30 in production, off elsewhere (test suites sign one account in many times). */
    SIGN_INS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(0).optional(),
    /** Organizations one account may create per sliding day; 0 turns the limit off. Unset: 10 in production, off
     * elsewhere (test suites and benchmarks make many from one account). */
    ORGANIZATIONS_PER_ACCOUNT_PER_DAY: z.coerce.number().int().min(0).optional(),
    /** Requests one account (not a platform Admin or Moderator) may make to routes that write the append-only audit log
     * (API keys created and deleted, alert settings, member and project member changes, invites, redemptions) per
     * sliding hour; 0 turns the limit off. Unset: 300 in production, off elsewhere (review round 20, #155). */
    AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(0).optional(),
    /** Password hashing: threads deriving keys at once (19 MiB each) and hashes that may wait for one; past both,
     * 503 Auth.Busy. Default threads: one core short of the machine's, 1 to 4, so the event loop keeps a core. */
    PASSWORD_HASH_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, Math.min(4, availableParallelism() - 1))),
    PASSWORD_HASH_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(64),
    /** How hashing threads yield to the rest of the process (Linux): `idle` (SCHED_IDLE) or `low` (nice +10). */
    PASSWORD_HASH_PRIORITY: z.enum(['idle', 'low']).default('idle'),
    /** The share of its core each hashing thread may take: it rests between keys to keep to it (docs/identity.md). */
    PASSWORD_HASH_CPU_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
    /** Public catalog and MCP Registry reads that miss the read cache, per client address and sliding minute; 0 turns
     * the limit off. Unset: 300 in production, off elsewhere (test suites and benchmarks read from one address). */
    PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(0).optional(),
    /** Anonymous telemetry events accepted per client address per minute; 0 turns the limit off. */
    TELEMETRY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),

    /** After SIGTERM/SIGINT the API finishes requests in flight for this long, then cuts those still open (a long
     * stream is settled for what it sent) and exits 0 once their settlements are issued (docs/operations.md). */
    API_SHUTDOWN_MS: z.coerce.number().int().min(100).default(15_000),
    WORKER_QUEUES: z.string().default('all'),
    WORKER_STALL_EXIT_MS: positiveInt.default(120_000),
    /** A watchdog thread kills the worker process when its main loop has not turned for this long (docs/operations.md). */
    WORKER_LOOP_STALL_EXIT_MS: z.coerce.number().int().min(200).default(30_000),
    /** After SIGTERM/SIGINT the jobs in hand have this long to finish; then the process exits (killed if its loop is
     * blocked) and their locks expire to other workers. */
    WORKER_SHUTDOWN_MS: z.coerce.number().int().min(100).default(25_000),
    /** BullMQ job lock (renewed every half of it) and stalled-job check interval: a job whose worker died goes back
     * to its queue within about three times this. */
    WORKER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),

    /** Gateway ledger (docs/wallet.md): settled requests waiting in an organization's Redis stream before new paid
     * requests of that organization are refused with 503, and how long the first entry waits so a batch can form. */
    LEDGER_BACKLOG_LIMIT: positiveInt.default(50_000),
    LEDGER_FLUSH_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(250),
    /** How long a gateway request's hold lives without renewal: a request in flight renews it every third of it, so
     * only the hold of a request whose process died goes back after it (docs/wallet.md, "Holds expire"). */
    GATEWAY_HOLD_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),

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
    /** Alerts of one organization delivered at once, over every alerts worker process (0: off); its others wait in
     * the delayed set, so one organization's slow webhook cannot hold every slot (docs/wallet.md, "Delivery"). */
    ALERTS_PER_ORGANIZATION: z.coerce.number().int().min(0).default(1),
    /** Alerts delivered at once, over every alerts worker process, of the organizations whose webhook one account set
     * (0: off); so one account's many organizations cannot hold every slot either (docs/wallet.md). */
    ALERTS_PER_ACCOUNT: z.coerce.number().int().min(0).default(2),

    OUTBOUND_ALLOWED_HOSTS: list.default([]),
    WEB_BILLING_MULTIPLIER: z.coerce.number().positive().default(1),
    /** Web fetch page cache (docs/web.md): a page's lifetime (0: off), and the bytes pages may add per window of that
     * length, in all and per organization; a page past either is served but not cached. */
    WEB_FETCH_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
    WEB_FETCH_CACHE_BYTES: positiveInt.default(64 * 1_048_576),
    WEB_FETCH_CACHE_ORG_BYTES: positiveInt.default(8 * 1_048_576),
    /** Web fetch: total time per page (connect, redirects, body), pages fetched at once per batch, and how long
     * the API waits for a batch before answering 503. */
    WEB_FETCH_PAGE_TIMEOUT_MS: positiveInt.default(10_000),
    WEB_FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(20).default(8),
    WEB_FETCH_WAIT_MS: positiveInt.default(45_000),
    /** Web fetch batches one organization may have queued or running at once, over every API and worker process
     * (0: off); one more waits its turn before anything is charged, and answers 429 after WEB_FETCH_WAIT_MS of
     * waiting. At most half the batch slots (worker processes × 4). */
    WEB_FETCH_BATCHES_PER_ORGANIZATION: z.coerce.number().int().min(0).default(2),
    /** A skill bundle's review thread (docs/skill-bundles.md): its wall time and heap; past either the version goes back
     * to its publisher as changes_requested, saying which. */
    SKILL_REVIEW_TIMEOUT_MS: positiveInt.default(60_000),
    SKILL_REVIEW_HEAP_MB: z.coerce.number().int().min(32).max(4096).default(512),
    /** Skill bundle reviews of one publishing account run at once, over every worker process (0: off); its other
     * submits wait in the delayed set (docs/skill-bundles.md, "One account's share"). */
    SKILL_REVIEWS_PER_ACCOUNT: z.coerce.number().int().min(0).default(1),
    /** Skill bundle uploads of one account inspected or waiting at once per API process (0: off); one more is
     * `429 Skill.TooManyUploads` (docs/skill-bundles.md, "One account's share"). */
    SKILL_UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(0).default(2),
    /** Reading fetched HTML (docs/web.md): threads per worker process, and each page's wall time (counted from its
     * start in a thread), thread heap, elements, attributes and nesting depth; past one, `Page too complex to read`. */
    WEB_EXTRACT_THREADS: z.coerce.number().int().min(1).max(32).default(2),
    WEB_EXTRACT_TIMEOUT_MS: positiveInt.default(5_000),
    WEB_EXTRACT_HEAP_MB: z.coerce.number().int().min(32).max(4096).default(256),
    WEB_EXTRACT_MAX_ELEMENTS: positiveInt.default(50_000),
    WEB_EXTRACT_MAX_ATTRIBUTES: positiveInt.default(100_000),
    WEB_EXTRACT_MAX_DEPTH: z.coerce.number().int().min(16).max(4096).default(256),
    CATALOG_READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    /** The reverse-DNS prefix of MCP Registry server names (`<this>.<publisher>/<item>`); default: the reversed
     * host of PUBLIC_BASE_URL. At most 70 characters, so a whole name stays within the registry's 200. */
    MCP_REGISTRY_NAMESPACE: z
      .string()
      .regex(/^[a-zA-Z0-9]([a-zA-Z0-9.-]{0,68}[a-zA-Z0-9])?$/, 'must be a reverse-DNS name such as com.example.hub')
      .optional(),

    GITHUB_REPO: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
      .default('ockhub/ockhub'),
    GITHUB_API_URL: url.default('https://api.github.com'),

    VIDEO_POLL_INTERVAL_MS: positiveInt.default(4000),
    VIDEO_TASK_DEADLINE_MS: positiveInt.default(30 * 60_000),
    /** Video steps one worker process runs at once; each mostly waits on the upstream, PostgreSQL and Redis. */
    VIDEO_WORKER_CONCURRENCY: positiveInt.default(200),
    /**
     * Tasks of one organization whose reference images one worker process reads at once (each read may take up to
     * 30 s per image); its other tasks wait for the next poll, so one organization cannot hold every slot
     * (docs/video.md, "Reference images").
     */
    VIDEO_IMAGE_CHECKS_PER_ORGANIZATION: positiveInt.default(8),
    /**
     * Decoded bytes of inline (data URL) reference images one organization's video tasks may hold in PostgreSQL at
     * once, until each task's last submission or end (docs/video.md, "Reference images"); 300 MiB.
     */
    VIDEO_INLINE_IMAGES_MAX_BYTES: positiveInt.default(300 * 1024 * 1024),

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
    TRUST_PROXY: trustProxySetting.default(false),
  })
  .superRefine((env, ctx) => {
    if (env.SECRET_KEY_PREVIOUS === env.SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SECRET_KEY_PREVIOUS'], message: 'must differ from SECRET_KEY' });
    }
    // BullMQ keeps each queue's keys in one slot only when the prefix carries a hash tag.
    if (env.REDIS_CLUSTER_NODES && !/\{[^{}]+\}/.test(env.REDIS_PREFIX)) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_PREFIX'],
        message: 'must contain a hash tag such as {ockhub} when REDIS_CLUSTER_NODES is set',
      });
    }
    if (env.NODE_ENV !== 'production') return;
    const required = ['UPSTREAM_MESSAGES_URL', 'UPSTREAM_VIDEO_URL', 'UPSTREAM_SEARCH_URL', 'PUBLIC_BASE_URL'] as const;
    for (const name of required) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
    // Every upstream is required, and a vendor refuses a call without its key: a process started without one answered
    // every paid request of that capability 500 (the upstream's 401, docs/gateway.md), so it does not start.
    const keys = ['UPSTREAM_MESSAGES_KEY', 'UPSTREAM_VIDEO_KEY', 'UPSTREAM_SEARCH_KEY'] as const;
    for (const name of keys) {
      if (!env[name]) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `is required in production (the API key the gateway sends to ${name.replace('_KEY', '_URL')})`,
        });
      }
    }
    if (env.SECRET_KEY === DEVELOPMENT_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SECRET_KEY'], message: 'must be set to a private value in production' });
    }
    if (env.SECRET_KEY_PREVIOUS === DEVELOPMENT_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRET_KEY_PREVIOUS'],
        message: 'must not be the development value in production',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;
