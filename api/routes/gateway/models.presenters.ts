// A registry model as each dialect shows it: Anthropic's model object (with the capability SPEC adds) or OpenAI's.
import type { Request } from 'express';
import type { ModelPage } from '../../../shared/gateway/model-pages.js';
import type { ModelEntry } from '../../../shared/gateway/model-registry.js';

/**
 * SPEC section 5 gives every caller Anthropic's list shape, Bearer ones included (curl, the console, any HTTP client).
 * Only a client that names itself as one of OpenAI's SDKs (`User-Agent: OpenAI/JS 6.x`, `OpenAI/Python 1.x`), whose
 * `models.list()` reads OpenAI's list and never pages, gets OpenAI's shapes; never one that sent `anthropic-version`.
 */
export const wantsOpenAiShape = (req: Request) =>
  /^OpenAI\//.test(req.header('user-agent') ?? '') && req.header('anthropic-version') === undefined;

export const presentAnthropicModel = (m: ModelEntry) => ({
  type: 'model' as const,
  id: m.id,
  display_name: m.displayName,
  created_at: m.createdAt,
  capabilities: [m.capability],
});

export const presentOpenAiModel = (m: ModelEntry) => ({
  id: m.id,
  object: 'model' as const,
  created: Math.floor(Date.parse(m.createdAt) / 1000),
  owned_by: 'ockhub',
});

export function presentAnthropicPage(page: ModelPage) {
  const data = page.models.map(presentAnthropicModel);
  return { data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

export const presentOpenAiList = (models: ModelEntry[]) => ({
  object: 'list' as const,
  data: models.map(presentOpenAiModel),
});
