// Token usage of a Messages answer: read from a JSON response, or metered from the SSE stream as it passes
// (message_start carries input and cache tokens, the last message_delta the cumulative output and any updated
// input, cache and server-tool figures); a stream cut short is billed for what was produced, estimated from what
// was received when the final usage never came (see StreamUsageMeter.billable).
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
  /** An iteration's model (an advisor sub-inference names its own). */
  model?: string | null;
};

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/**
 * The most any usage figure of one answer can be: the request log's integer columns. No model comes near it (a
 * context of a few million tokens); an upstream that reports more (a bug, a wrapped counter) is billed at this
 * figure. Unbounded, one such answer failed every later ledger batch of its organization, and a token total past
 * 64-bit integers failed the settlement step half-way in Redis (found by a review).
 */
export const MAX_USAGE_FIGURE = 2_147_483_647;

function bounded(usage: TokenUsage): TokenUsage {
  const out = { ...usage };
  for (const key of Object.keys(out) as (keyof TokenUsage)[]) {
    out[key] = Math.min(out[key] ?? 0, MAX_USAGE_FIGURE);
  }
  return out;
}

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
  return bounded(usage);
}

/** An advisor sub-inference of an answer: run by the advisor's model, so priced at its prices, not the executor's. */
export type AdvisorCall = { model: string | undefined; usage: TokenUsage };

/** The advisor sub-inferences among an answer's iterations (part of what `usageOf` counts). */
export function advisorCallsOf(fields: UsageFields | undefined | null): AdvisorCall[] {
  const calls: AdvisorCall[] = [];
  for (const iteration of fields?.iterations ?? []) {
    if (iteration?.type !== 'advisor_message') continue;
    calls.push({
      model: typeof iteration.model === 'string' ? iteration.model : undefined,
      usage: bounded(ownUsage(iteration)),
    });
  }
  return calls;
}

/**
 * UTF-8 bytes per token assumed for what a cut stream showed. Tokens never outnumber bytes, and text the caller
 * chooses can approach a token per character: CJK runs about one token per 3-byte character, English about one per 4
 * bytes, random ASCII one per 2 to 3. So a third of the bytes bills CJK fully, English about a third above its real
 * figure, and leaves little to win by choosing the text.
 */
const CUT_STREAM_BYTES_PER_TOKEN = 3;

/** Server tools a cut stream is seen to call, by the usage figure that prices them. */
const serverToolFigures: Record<string, 'webSearchRequests' | 'webFetchRequests'> = {
  web_search: 'webSearchRequests',
  web_fetch: 'webFetchRequests',
};

export class StreamUsageMeter {
  private start: UsageFields = {};
  private final: UsageFields | undefined;
  private producedBytes = 0;
  /** What the upstream fed back to the model in a server-side tool loop (result blocks): input of a later pass. */
  private toolResultBytes = 0;
  private serverTools = { webSearchRequests: 0, webFetchRequests: 0 };
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
      case 'content_block_start': {
        const block = data.content_block as { type?: unknown; name?: unknown } | undefined;
        if (block?.type === 'server_tool_use') {
          const figure = serverToolFigures[String(block.name)];
          if (figure) this.serverTools[figure]++;
        } else if (typeof block?.type === 'string' && block.type.endsWith('_tool_result')) {
          this.toolResultBytes += Buffer.byteLength(JSON.stringify(block));
        }
        return;
      }
      case 'content_block_delta': {
        const delta = data.delta as { text?: string; thinking?: string; partial_json?: string } | undefined;
        this.producedBytes += Buffer.byteLength(delta?.text ?? delta?.thinking ?? delta?.partial_json ?? '');
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

  /** message_start's figures updated by the final message_delta's (cumulative), once the final ones came. */
  private finalUsage(): UsageFields | undefined {
    if (this.final?.output_tokens === undefined || this.final.output_tokens === null) return undefined;
    // A field message_delta leaves out (or sends as null) keeps message_start's.
    const merged: UsageFields = { ...this.start };
    for (const [key, value] of Object.entries(this.final)) {
      if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
    }
    return merged;
  }

  /** Whether the usage to bill is an estimate: the stream was cut before its final figures. */
  get estimated(): boolean {
    return this.finalUsage() === undefined;
  }

  /** The advisor sub-inferences of the stream's final usage (none known for a stream cut before it). */
  advisorCalls(): AdvisorCall[] {
    return advisorCallsOf(this.finalUsage());
  }

  /**
   * The usage to bill: the stream's own figures; for a stream cut before them (a client that leaves before the final
   * message_delta keeps what it read), a bound the client cannot shrink by its choice of text: output from the bytes
   * received, the server tools it was seen to call, and their results as input of the pass that read them.
   */
  billable(): TokenUsage {
    const merged = this.finalUsage();
    if (merged) return usageOf(merged);
    const usage = usageOf(this.start);
    const tokens = (bytes: number) => Math.ceil(bytes / CUT_STREAM_BYTES_PER_TOKEN);
    return bounded({
      ...usage,
      inputTokens: usage.inputTokens + tokens(this.toolResultBytes),
      outputTokens: Math.max(usage.outputTokens, tokens(this.producedBytes)),
      webSearchRequests: Math.max(usage.webSearchRequests ?? 0, this.serverTools.webSearchRequests),
      webFetchRequests: Math.max(usage.webFetchRequests ?? 0, this.serverTools.webFetchRequests),
    });
  }
}
