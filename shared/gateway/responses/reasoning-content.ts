// Anthropic thinking carried across a Responses conversation in reasoning items' `encrypted_content` (when `include`
// asks for `reasoning.encrypted_content`), so a tool loop keeps thinking on: the upstream requires the last assistant
// turn that calls a tool to start with its signed thinking block. The content is not encrypted: the thinking text is
// already the item's summary, and the signature (or a redacted block's data) is the upstream's own, which it verifies,
// so a forged item gains nothing but a 400 from the upstream. No JSON inside: a string of base64url fields.
import type { Block, Refuse } from '../chat-completions/to-messages.js';

const THINKING = 'ockhub.thinking.v1:';
const REDACTED = 'ockhub.redacted_thinking.v1:';
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A thinking block (text and signature, kept exactly) or a redacted_thinking block (its data) as encrypted_content. */
export function encryptedContentOf(block: { type: string; thinking?: string; signature?: string; data?: string }) {
  return block.type === 'redacted_thinking'
    ? `${REDACTED}${encode(block.data ?? '')}`
    : `${THINKING}${encode(block.thinking ?? '')}:${encode(block.signature ?? '')}`;
}

/** The thinking block an encrypted_content made here stands for; undefined for one made elsewhere (OpenAI's own, from
 * a conversation begun there), which is dropped: it means nothing to this upstream. */
export function thinkingBlockOf(content: string, param: string, refuse: Refuse): Block | undefined {
  const fields = content.startsWith(THINKING)
    ? // At most three fields: a split of the whole string made an array of a string per `:` (32 million for a 32 MB
      // body, 2.5 s of the main loop before the 400; security review #133).
      content.slice(THINKING.length).split(':', 3)
    : content.startsWith(REDACTED)
      ? [content.slice(REDACTED.length)]
      : undefined;
  if (!fields) return undefined;
  if (fields.length !== (content.startsWith(THINKING) ? 2 : 1) || !fields.every((f) => BASE64URL.test(f))) {
    throw refuse(param, 'is not reasoning content this gateway returned (send it back unchanged)');
  }
  const [first = '', signature = ''] = fields.map((f) => Buffer.from(f, 'base64url').toString('utf8'));
  return content.startsWith(THINKING)
    ? { type: 'thinking', thinking: first, signature }
    : { type: 'redacted_thinking', data: first };
}
