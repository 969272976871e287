// The simulator's fixed token function: every piece of the prompt (a tool, a system block, a message block)
// costs ceil(characters / 4) tokens, an image or document costs a flat 1,000; pieces are listed in Anthropic's
// cache-prefix order (tools, system, messages) so prompt caching can split the count at its breakpoints.
import { canonicalJson } from '../deterministic.js';
import { blocksOf, type ContentBlock, type CountTokensRequest } from './request.js';

export const MEDIA_TOKENS = 1000;

export function tokensOfText(text: string): number {
  return Math.ceil(text.length / 4);
}

export type PromptSegment = {
  /** Canonical form of the piece, the unit of the cache-prefix hash. */
  key: string;
  tokens: number;
  /** Set when the piece carries `cache_control` (a cache breakpoint). */
  cacheTtl?: '5m' | '1h';
};

function withoutCacheControl(value: Record<string, unknown>): Record<string, unknown> {
  const { cache_control: _ignored, ...rest } = value;
  return rest;
}

function tokensOfToolResultContent(content: unknown): number {
  if (typeof content === 'string') return tokensOfText(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce<number>((sum, part) => sum + tokensOfBlock(part as ContentBlock), 0);
}

export function tokensOfBlock(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return tokensOfText(String(block.text ?? ''));
    case 'image':
    case 'document':
      return MEDIA_TOKENS;
    case 'tool_use':
      return tokensOfText(String(block.name ?? '') + canonicalJson(block.input ?? {}));
    case 'tool_result':
      return tokensOfToolResultContent(block.content);
    case 'thinking':
      return tokensOfText(String(block.thinking ?? ''));
    default:
      return tokensOfText(canonicalJson(withoutCacheControl(block)));
  }
}

function ttlOf(cacheControl: unknown): '5m' | '1h' | undefined {
  if (!cacheControl) return undefined;
  return (cacheControl as { ttl?: string }).ttl === '1h' ? '1h' : '5m';
}

export function promptSegments(request: CountTokensRequest): PromptSegment[] {
  const segments: PromptSegment[] = [];
  for (const tool of request.tools ?? []) {
    const text = tool.name + (tool.description ?? '') + canonicalJson(tool.input_schema ?? {});
    segments.push({
      key: canonicalJson(withoutCacheControl(tool)),
      tokens: tokensOfText(text),
      cacheTtl: ttlOf(tool.cache_control),
    });
  }
  const system = typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : (request.system ?? []);
  for (const block of system) {
    segments.push({
      key: `system:${canonicalJson(withoutCacheControl(block))}`,
      tokens: tokensOfBlock(block),
      cacheTtl: ttlOf(block.cache_control),
    });
  }
  request.messages.forEach((message, i) => {
    for (const block of blocksOf(message.content)) {
      segments.push({
        key: `${i}:${message.role}:${canonicalJson(withoutCacheControl(block))}`,
        tokens: tokensOfBlock(block),
        cacheTtl: ttlOf(block.cache_control),
      });
    }
  });
  return segments;
}

/** Total input tokens of a request (what count_tokens answers), at least 1. */
export function countInputTokens(request: CountTokensRequest): number {
  return Math.max(
    1,
    promptSegments(request).reduce((sum, s) => sum + s.tokens, 0),
  );
}
