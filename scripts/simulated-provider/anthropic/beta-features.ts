// Fields that exist only under a beta: without its name in `anthropic-beta` Anthropic refuses them as unknown
// inputs, as it refuses every field it does not know.
import { invalidRequest } from './errors.js';
import type { CountTokensRequest } from './request.js';

export const betas = {
  contextManagement: 'context-management-2025-06-27',
  compact: /^compact-\d{4}-\d{2}-\d{2}$/,
  mcpClient: /^mcp-client-\d{4}-\d{2}-\d{2}$/,
} as const;

const named = (present: Set<string>, beta: string | RegExp) =>
  typeof beta === 'string' ? present.has(beta) : [...present].some((b) => beta.test(b));

export function checkBetaFields(request: CountTokensRequest, present: Set<string>): void {
  const edits = request.context_management?.edits ?? [];
  if (request.context_management) {
    const compacting = edits.some((e) => e.type === 'compact_20260112');
    const allowed = named(present, betas.contextManagement) || (compacting && named(present, betas.compact));
    if (!allowed) throw invalidRequest('context_management: Extra inputs are not permitted');
  }
  if (request.mcp_servers !== undefined && !named(present, betas.mcpClient)) {
    throw invalidRequest('mcp_servers: Extra inputs are not permitted');
  }
  const clearing = edits.findIndex((e) => e.type === 'clear_thinking_20251015');
  if (clearing >= 0) {
    if (request.thinking === undefined || request.thinking.type === 'disabled') {
      throw invalidRequest(
        'context_management.edits: the clear_thinking_20251015 strategy requires thinking to be enabled.',
      );
    }
    if (clearing !== 0) {
      throw invalidRequest('context_management.edits: clear_thinking_20251015 must be the first edit.');
    }
  }
}
