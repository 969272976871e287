// Token usage of a Messages answer: read from a JSON response, or metered from the SSE stream as it passes
// (message_start carries input and cache tokens, message_delta the output); a stream cut short is billed for
// what was produced, estimated from the text received when the final usage never came.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TokenUsage } from './pricing.js';

type UsageFields = {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
};

const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

export function usageOf(fields: UsageFields | undefined): TokenUsage {
  return {
    inputTokens: n(fields?.input_tokens),
    outputTokens: n(fields?.output_tokens),
    cacheReadTokens: n(fields?.cache_read_input_tokens),
    cacheWriteTokens: n(fields?.cache_creation_input_tokens),
  };
}

export class StreamUsageMeter {
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  private sawFinalUsage = false;
  private producedChars = 0;
  completed = false;
  upstreamError: string | undefined;
  private readonly parser = createParser({ onEvent: (e) => this.onEvent(e) });
  private readonly decoder = new TextDecoder();

  feed(chunk: Buffer): void {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }

  private onEvent(event: EventSourceMessage): void {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    switch (event.event ?? data.type) {
      case 'message_start': {
        const u = usageOf((data.message as { usage?: UsageFields } | undefined)?.usage);
        this.usage = { ...u, outputTokens: Math.max(this.usage.outputTokens, u.outputTokens) };
        return;
      }
      case 'content_block_delta': {
        const delta = data.delta as { text?: string; thinking?: string; partial_json?: string } | undefined;
        this.producedChars += (delta?.text ?? delta?.thinking ?? delta?.partial_json ?? '').length;
        return;
      }
      case 'message_delta': {
        const u = data.usage as UsageFields | undefined;
        if (u?.output_tokens !== undefined) {
          this.usage.outputTokens = n(u.output_tokens);
          this.sawFinalUsage = true;
        }
        if (u?.input_tokens) this.usage.inputTokens = n(u.input_tokens);
        if (u?.cache_read_input_tokens) this.usage.cacheReadTokens = n(u.cache_read_input_tokens);
        if (u?.cache_creation_input_tokens) this.usage.cacheWriteTokens = n(u.cache_creation_input_tokens);
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
    if (this.sawFinalUsage) return { ...this.usage };
    return { ...this.usage, outputTokens: Math.max(this.usage.outputTokens, Math.ceil(this.producedChars / 4)) };
  }
}
