// The one interface of video upstreams (Seedance-style content tasks, OpenAI-style videos) and its errors.
import type { Readable } from 'node:stream';
import type { Config } from '../../config/index.js';
import { timeUpstream } from '../../metrics/metrics.js';
import { upstreamClient } from '../upstream-client.js';

export type UpstreamVideoRequest = {
  upstreamModel: string;
  prompt: string;
  seconds: number;
  ratio?: string;
  resolution?: string;
  size?: string;
  generateAudio?: boolean;
  images: { url: string; role: string }[];
};

export type UpstreamVideoState = {
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress?: number;
  error?: string;
  /** Where the finished video can be downloaded (Seedance gives a URL; OpenAI serves it under the task). */
  videoUrl?: string;
};

export type VideoProvider = {
  readonly kind: 'seedance' | 'openai';
  submit(request: UpstreamVideoRequest): Promise<string>;
  status(upstreamId: string): Promise<UpstreamVideoState>;
  /** The finished video's bytes as a stream (never whole in memory). */
  download(upstreamId: string, state: UpstreamVideoState, maxBytes: number): Promise<Readable>;
  cancel(upstreamId: string): Promise<void>;
};

/** An upstream answer that is not a success. `permanent` when retrying the same request cannot help (4xx). */
export class UpstreamVideoError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'UpstreamVideoError';
  }

  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

/** The error text of an upstream error body in either vendor's shape, cut to a readable length. */
export function upstreamErrorText(status: number, body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: { message?: string } };
    if (parsed.error?.message) return `upstream ${status}: ${parsed.error.message.slice(0, 300)}`;
  } catch {
    // not JSON
  }
  return `upstream ${status}`;
}

export function upstreamVideoBase(config: Config): { base: string; headers: Record<string, string> } {
  const url = config.UPSTREAM_VIDEO_URL;
  if (!url) throw new UpstreamVideoError('No video upstream is configured (UPSTREAM_VIDEO_URL).', 503);
  const headers: Record<string, string> = {};
  if (config.UPSTREAM_VIDEO_KEY) headers.authorization = `Bearer ${config.UPSTREAM_VIDEO_KEY}`;
  return { base: url.endsWith('/') ? url : `${url}/`, headers };
}

/** One timed JSON call to the configured video upstream; an error status becomes an UpstreamVideoError. */
export async function callVideoUpstream(
  config: Config,
  provider: string,
  call: { path: string; method: string; body?: unknown },
): Promise<unknown> {
  const { base, headers } = upstreamVideoBase(config);
  const { body } = call;
  const reply = await timeUpstream(provider, () =>
    upstreamClient(config).fetchBuffer(new URL(call.path, base), {
      method: call.method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: 30_000,
    }),
  );
  if (reply.status >= 300) throw new UpstreamVideoError(upstreamErrorText(reply.status, reply.body), reply.status);
  return JSON.parse(reply.body.toString('utf8') || '{}') as unknown;
}
