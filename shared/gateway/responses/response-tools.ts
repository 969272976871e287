// The tools of a Responses request as the Messages upstream names them, and the way back. A function tool keeps its
// name; each function of a namespace tool (Codex groups its sub-agent tools so) is offered as `<namespace>__<name>`,
// described by the namespace's description and then its own, since Messages tools have no namespaces, and a tool_use
// of that name answers as a function_call with `name` and `namespace` again. An offered web search is not passed on
// (the gateway runs none). Two tools that would share an upstream name are a 400, so a call always goes back to the
// one tool it came from. A `tool_choice` names a function as the client offered it (its name, and its namespace if it
// has one), and one that names no offered function, or asks for a tool call when only a web search was offered, is a
// 400 before anything is sent, as OpenAI refuses it.
import { badRequest } from '../../errors/app-error.js';
import type { FunctionTool, ToolChoice } from '../chat-completions/to-messages.js';
import type { ResponsesRequest, ToolParam } from './response-request.js';

/** The name and namespace of a function, as the Responses API has them on a function_call. */
export type CallName = { name: string; namespace?: string };
/** Upstream tool names that stand for a namespaced function. */
export type ToolNames = ReadonlyMap<string, CallName>;

const SEPARATOR = '__';
/** Anthropic's limit on a tool name, which the joined name must keep too. */
const MAX_NAME = 64;

/** The upstream name of a function call item: its name, joined to its namespace if it has one. */
export const upstreamToolName = (name: string, namespace?: string | null): string =>
  namespace ? `${namespace}${SEPARATOR}${name}` : name;

/** A namespace function's description upstream: the namespace's description first (what the group is for, which the
 * model would otherwise never see), then the function's own. */
const joinedDescription = (namespace: string | null | undefined, fn: string | null | undefined) =>
  [namespace, fn].filter((d) => d).join('\n\n') || undefined;

/** The Messages tools of a request's `tools`, and the namespaced names among them. */
export function messagesToolsOf(tools: readonly ToolParam[]): { tools: FunctionTool[]; names: ToolNames } {
  const flat: FunctionTool[] = [];
  const names = new Map<string, CallName>();
  const seen = new Set<string>();
  const add = (tool: FunctionTool, param: string, call?: CallName) => {
    if (tool.name.length > MAX_NAME) {
      throw badRequest(
        'Responses.Invalid',
        `${param}.name: joined to its namespace as ${tool.name}, it is longer than ${MAX_NAME} characters`,
      );
    }
    if (seen.has(tool.name)) {
      throw badRequest(
        'Responses.Invalid',
        `${param}.name: another tool is already offered as ${tool.name} (a namespace's functions are offered as ` +
          `<namespace>${SEPARATOR}<name>)`,
      );
    }
    seen.add(tool.name);
    flat.push(tool);
    if (call) names.set(tool.name, call);
  };
  for (const [i, tool] of tools.entries()) {
    if (tool.type === 'function') add(tool, `tools.${i}`);
    else if (tool.type === 'namespace') {
      for (const [j, fn] of tool.tools.entries()) {
        const name = upstreamToolName(fn.name, tool.name);
        const description = joinedDescription(tool.description, fn.description);
        add({ ...fn, name, description }, `tools.${i}.tools.${j}`, { name: fn.name, namespace: tool.name });
      }
    }
    // web_search: not offered (see the file's first lines).
  }
  return { tools: flat, names };
}

/** The function_call name (and namespace) of an upstream tool_use. */
export const callNameOf = (upstreamName: string, names: ToolNames | undefined): CallName =>
  names?.get(upstreamName) ?? { name: upstreamName };

/** The Messages tool_choice of a request's `tool_choice`, given the tools offered upstream; `refuse` words a 400. */
export function toolChoiceOf(
  choice: ResponsesRequest['tool_choice'],
  offered: { tools: readonly FunctionTool[]; names: ToolNames },
  refuse: (param: string, message: string) => Error,
): ToolChoice {
  if (choice === 'required' && offered.tools.length === 0) {
    throw refuse(
      'tool_choice',
      'required: no function is offered in tools (a web_search tool is accepted but never run here)',
    );
  }
  if (!choice || typeof choice !== 'object') return choice;
  const name = upstreamToolName(choice.name, choice.namespace);
  const call = offered.names.get(name) ?? (offered.tools.some((t) => t.name === name) ? { name } : undefined);
  if (call?.name !== choice.name || (call.namespace ?? '') !== (choice.namespace ?? '')) {
    const where = choice.namespace ? ` in namespace ${choice.namespace}` : '';
    throw refuse('tool_choice.name', `no function ${choice.name}${where} is offered in tools`);
  }
  return { name };
}
