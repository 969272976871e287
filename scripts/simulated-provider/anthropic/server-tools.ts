// Server tools the simulator runs itself: each web search or web fetch tool offered is used once, before the
// answer, as a `server_tool_use` block followed by its result block, and counted in `usage.server_tool_use`.
import { stableId } from '../deterministic.js';
import type { MessagesRequest } from './request.js';

export type ServerToolUseBlock = { type: 'server_tool_use'; id: string; name: string; input: Record<string, unknown> };
export type ServerToolResultBlock = {
  type: 'web_search_tool_result' | 'web_fetch_tool_result';
  tool_use_id: string;
  content: unknown;
};

export type ServerToolRun = {
  blocks: (ServerToolUseBlock | ServerToolResultBlock)[];
  webSearchRequests: number;
  webFetchRequests: number;
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'query';

export function runServerTools(request: MessagesRequest, userText: string, seed: string): ServerToolRun {
  const run: ServerToolRun = { blocks: [], webSearchRequests: 0, webFetchRequests: 0 };
  const query = userText.replace(/\s+/g, ' ').trim().slice(0, 120) || 'simulated query';
  const page = `https://example.com/${slug(query)}`;
  for (const tool of request.tools ?? []) {
    const type = String(tool.type ?? '');
    const id = stableId('srvtoolu_', `${seed}|${tool.name}`);
    if (type.startsWith('web_search_')) {
      run.webSearchRequests++;
      run.blocks.push({ type: 'server_tool_use', id, name: tool.name, input: { query } });
      run.blocks.push({
        type: 'web_search_tool_result',
        tool_use_id: id,
        content: [
          {
            type: 'web_search_result',
            url: page,
            title: `${query} (simulated result)`,
            encrypted_content: Buffer.from(`simulated page about ${query}`).toString('base64'),
            page_age: null,
          },
        ],
      });
    } else if (type.startsWith('web_fetch_')) {
      run.webFetchRequests++;
      run.blocks.push({ type: 'server_tool_use', id, name: tool.name, input: { url: page } });
      run.blocks.push({
        type: 'web_fetch_tool_result',
        tool_use_id: id,
        content: {
          type: 'web_fetch_result',
          url: page,
          content: {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: `A simulated page about ${query}.` },
          },
          retrieved_at: '2025-01-01T00:00:00Z',
        },
      });
    }
  }
  return run;
}

export function isServerToolResult(block: { type: string }): block is ServerToolResultBlock {
  return block.type === 'web_search_tool_result' || block.type === 'web_fetch_tool_result';
}
