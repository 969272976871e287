// Token usage of a Messages answer: read from a JSON response, or metered from the SSE stream as it passes
// (message_start carries input and cache tokens, the last message_delta the cumulative output and any updated
// input, cache and server-tool figures); a stream cut short is billed for what was produced, estimated from the
// text received when the final usage never came.
import { anthropicEventReader } from './anthropic-sse.js';
import { addUsage, type TokenUsage } from './pricing.js';

/** Every usage field the Messages API reports today (top level, message_delta and `iterations` entries). */
export type UsageFields = {
  type?: string;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  server_tool_use?: { web_search_requests?: number | null; web_fetch_requests?: number | null } | null;
  iterations?: UsageFields[] | null;
};

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** Iteration kinds whose tokens the top-level usage does not include (Anthropic: "A `compaction` entry's tokens are
 * not included in the top-level `usage` fields"; an advisor sub-inference is a separate model call). */
const separatelyCounted = new Set(['compaction', 'advisor_message']);

function ownUsage(fields: UsageFields | undefined | null): TokenUsage {
  const oneHour = n(fields?.cache_creation?.ephemeral_1h_input_tokens);
  const breakdown = n(fields?.cache_creation?.ephemeral_5m_input_tokens) + oneHour;
  return {
    inputTokens: n(fields?.input_tokens),
    outputTokens: n(fields?.output_tokens),
    cacheReadTokens: n(fields?.cache_read_input_tokens),
    cacheWriteTokens: Math.max(n(fields?.cache_creation_input_tokens), breakdown),
    cacheWrite1hTokens: oneHour,
    webSearchRequests: n(fields?.server_tool_use?.web_search_requests),
    webFetchRequests: n(fields?.server_tool_use?.web_fetch_requests),
  };
}

/** The billable usage of an answer: its top-level figures plus the iterations they leave out. */
export function usageOf(fields: UsageFields | undefined | null): TokenUsage {
  let usage = ownUsage(fields);
  for (const iteration of fields?.iterations ?? []) {
    if (iteration && separatelyCounted.has(String(iteration.type))) usage = addUsage(usage, ownUsage(iteration));
  }
  return usage;
}

export class StreamUsageMeter {
  private start: UsageFields = {};
  private final: UsageFields | undefined;
  private producedChars = 0;
  completed = false;
  upstreamError: string | undefined;
  /** The `model` of message_start: which upstream model served the stream. */
  servedModel: string | undefined;
  readonly feed = anthropicEventReader((type, data) => this.onEvent(type, data));

  private onEvent(type: string, data: Record<string, unknown>): void {
    switch (type) {
      case 'message_start': {
        const message = data.message as { usage?: UsageFields; model?: string } | undefined;
        this.start = message?.usage ?? {};
        this.servedModel = typeof message?.model === 'string' ? message.model : undefined;
        return;
      }
      case 'content_block_delta': {
        const delta = data.delta as { text?: string; thinking?: string; partial_json?: string } | undefined;
        this.producedChars += (delta?.text ?? delta?.thinking ?? delta?.partial_json ?? '').length;
        return;
      }
      case 'message_delta': {
        const u = data.usage as UsageFields | undefined;
        if (u && typeof u === 'object') this.final = u;
        return;
      }
      case 'message_stop':
        this.completed = true;
        return;
      case 'error':
        this.upstreamError = (data.error as { message?: string } | undefined)?.message ?? 'upstream error';
        return;
    }
  }

  /** The usage to bill: the stream's own figures, or for a cut stream an estimate of ~4 characters per token. */
  billable(): TokenUsage {
    if (this.final?.output_tokens !== undefined && this.final.output_tokens !== null) {
      // message_delta's figures are cumulative; a field it leaves out (or sends as null) keeps message_start's.
      const merged: UsageFields = { ...this.start };
      for (const [key, value] of Object.entries(this.final)) {
        if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
      }
      return usageOf(merged);
    }
    const usage = usageOf(this.start);
    return { ...usage, outputTokens: Math.max(usage.outputTokens, Math.ceil(this.producedChars / 4)) };
  }
}
