// Reads Anthropic's server-sent events from raw chunks as they pass: each complete event's type and JSON data.
import { createParser } from 'eventsource-parser';

export type AnthropicEventHandler = (type: string, data: Record<string, unknown>) => void;

export function anthropicEventReader(onEvent: AnthropicEventHandler): (chunk: Buffer) => void {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (event) => {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      onEvent(String(event.event ?? data.type), data);
    },
  });
  return (chunk) => parser.feed(decoder.decode(chunk, { stream: true }));
}
