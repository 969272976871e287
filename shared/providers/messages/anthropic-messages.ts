// Upstream adapter for the Anthropic Messages wire format: forwards the request body as it came (the model
// mapped to its upstream id), the protocol version and beta headers and the query string, and hands back the raw
// response stream.
import type { Readable } from 'node:stream';
import type { Config } from '../../config/index.js';
import { serviceUnavailable } from '../../errors/app-error.js';
import type { OutboundHeaders } from '../../http/index.js';
import { timeUpstream } from '../../metrics/metrics.js';
import { upstreamClient } from '../upstream-client.js';

export type MessagesCall = {
  path: '/v1/messages' | '/v1/messages/count_tokens';
  body: Record<string, unknown>;
  /** anthropic-version and anthropic-beta of the caller, passed through. */
  version?: string;
  beta?: string;
  /** The caller's query string (`?beta=true`, ...), without the `?`. */
  query?: string;
  signal?: AbortSignal;
};

export type UpstreamReply = { status: number; headers: OutboundHeaders; body: Readable };

export type MessagesProvider = { call(call: MessagesCall): Promise<UpstreamReply> };

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

export function anthropicMessagesProvider(config: Config): MessagesProvider {
  return {
    async call({ path, body, version, beta, query, signal }) {
      const base = config.UPSTREAM_MESSAGES_URL;
      if (!base) throw serviceUnavailable('No messages upstream is configured.');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: body.stream ? 'text/event-stream' : 'application/json',
        'anthropic-version': version ?? DEFAULT_ANTHROPIC_VERSION,
      };
      if (config.UPSTREAM_MESSAGES_KEY) headers['x-api-key'] = config.UPSTREAM_MESSAGES_KEY;
      if (beta) headers['anthropic-beta'] = beta;
      const url = new URL(path.slice(1), base.endsWith('/') ? base : `${base}/`);
      if (query) url.search = query;
      const reply = await timeUpstream('anthropic', () =>
        upstreamClient(config).stream(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          ...(signal ? { signal } : {}),
        }),
      );
      return { status: reply.status, headers: reply.headers, body: reply.body };
    },
  };
}
