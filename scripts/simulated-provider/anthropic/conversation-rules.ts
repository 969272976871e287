// The rules Anthropic applies across a conversation: tool blocks need tools and pair up with the turn before,
// text blocks are non-empty, at most 4 cache breakpoints, a forced tool must exist (and excludes thinking), with
// thinking on the last assistant turn calling a tool starts with its thinking block, and a mid-conversation `system`
// message sits right after a user turn and holds only text.
import { invalidRequest } from './errors.js';
import { blocksOf, type CountTokensRequest, thinkingIsOn } from './request.js';

function checkSystemMessages(request: CountTokensRequest): void {
  request.messages.forEach((m, i) => {
    if (m.role !== 'system') return;
    if (i === 0) {
      throw invalidRequest(
        'messages.0.role: a conversation cannot start with a system message; use the top-level `system` parameter.',
      );
    }
    if (request.messages[i - 1]?.role !== 'user') {
      throw invalidRequest(`messages.${i}.role: a system message must immediately follow a user turn.`);
    }
    const blocks = blocksOf(m.content);
    if (blocks.length === 0 || blocks.some((b) => b.type !== 'text' || typeof b.text !== 'string' || b.text === '')) {
      throw invalidRequest(`messages.${i}.content: a system message holds only non-empty text.`);
    }
  });
}

/** With thinking on, the last assistant turn, when it calls a tool, must start with the thinking that led to it. */
function checkThinkingInToolLoop(request: CountTokensRequest): void {
  if (!thinkingIsOn(request)) return;
  const i = request.messages.findLastIndex((m) => m.role === 'assistant');
  const blocks = i < 0 ? [] : blocksOf(request.messages[i]?.content ?? []);
  if (!blocks.some((b) => b.type === 'tool_use')) return;
  const first = String(blocks[0]?.type);
  if (first === 'thinking' || first === 'redacted_thinking') return;
  throw invalidRequest(
    `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When ` +
      '`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost ' +
      'set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To ' +
      'avoid this requirement, disable `thinking`.',
  );
}

export function checkConversation(request: CountTokensRequest): void {
  checkSystemMessages(request);
  checkThinkingInToolLoop(request);
  const hasToolBlocks = request.messages.some((m) =>
    blocksOf(m.content).some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
  );
  if (hasToolBlocks && !request.tools?.length) {
    throw invalidRequest('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  }
  request.messages.forEach((m, i) => {
    blocksOf(m.content).forEach((b, j) => {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text === '')) {
        throw invalidRequest(`messages.${i}.content.${j}: text content blocks must be non-empty`);
      }
      if (b.type !== 'tool_result') return;
      if (m.role !== 'user')
        throw invalidRequest(`messages.${i}.content.${j}: tool_result blocks belong to user turns`);
      const previous = request.messages[i - 1];
      const ids = previous?.role === 'assistant' ? blocksOf(previous.content).map((p) => p.id) : [];
      if (!ids.includes(b.tool_use_id)) {
        throw invalidRequest(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        );
      }
    });
  });
  const breakpoints =
    (request.tools ?? []).filter((t) => t.cache_control).length +
    (typeof request.system === 'string' ? 0 : (request.system ?? []).filter((b) => b.cache_control).length) +
    request.messages.flatMap((m) => blocksOf(m.content)).filter((b) => b.cache_control).length +
    (request.cache_control ? 1 : 0);
  if (breakpoints > 4) {
    throw invalidRequest(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  }
}

export function checkTools(request: CountTokensRequest): void {
  for (const [i, tool] of (request.tools ?? []).entries()) {
    if ((tool.type === undefined || tool.type === 'custom') && !tool.input_schema) {
      throw invalidRequest(`tools.${i}.input_schema: Field required`);
    }
  }
  const choice = request.tool_choice;
  if (!choice || choice.type === 'auto' || choice.type === 'none') return;
  if (!request.tools?.length) throw invalidRequest('tool_choice: may only be specified while providing tools.');
  if (choice.type === 'tool' && !request.tools.some((t) => t.name === choice.name)) {
    throw invalidRequest(`tool_choice.name: Tool '${choice.name}' not found in tools.`);
  }
  if (thinkingIsOn(request)) {
    throw invalidRequest('Thinking may not be enabled when tool_choice forces tool use.');
  }
}
