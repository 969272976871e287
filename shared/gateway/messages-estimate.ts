// The most a Messages request can cost, reserved from the wallet before it runs. It must stay an upper bound
// whatever the body holds, since the gateway forwards fields it does not know:
// - every text it can see counts one token per UTF-8 byte (a byte-level tokenizer never packs less than one byte
//   into a token), with JSON punctuation and key names counted too as room for the per-block framing;
// - an image counts a fixed bound (images are resized before they are read);
// - what it cannot measure (a PDF, a file id, a URL source, encrypted content, MCP servers, a container, any
//   top-level field it does not know) fills the model's whole context window;
// - a server-side tool loop (web search, code execution, MCP, ...) or a compaction pass may read a full context
//   window again per pass, and produce up to max_tokens per pass;
// - priced at the dearest input price the body can reach (cache writes only when it asks for caching), at the
//   model's long-context prices when the bound's input is over their threshold;
// - for a request several models may serve (fallbacks, advisor tools), at the largest window and pass limit among
//   them, and each token class at the dearest price any of them reaches for it: one answer is billed at several.
import type { ModelEntry } from './model-registry.js';
import { type PriceOptionValues, priceMultipliersOf } from './price-options.js';
import { exactTokenPrice, roundUpMicros, tokenPricesFor, usdToMicros } from './pricing.js';

/** Resized images cost about width × height / 750 tokens: ~1,600 at 1,568 px, ~4,800 at 2,576 px (high resolution). */
export const IMAGE_TOKENS = 5_000;
/** The hidden tool-use system prompt (a few hundred tokens today) when any tool is offered. */
export const TOOL_PROMPT_TOKENS = 1_000;
/** Hidden definition of an Anthropic-defined tool (computer use, text editor, bash: up to ~1,300 today). */
export const DEFINED_TOOL_TOKENS = 2_000;
/** Web requests per server-loop pass when a web tool names no `max_uses` (parallel calls in one pass). */
export const WEB_REQUESTS_PER_PASS = 10;

/** Top-level fields whose content the walk measures; anything else may bring in content the body does not show. */
const measuredFields = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'metadata',
  'service_tier',
  'speed',
  'inference_geo',
  'cache_control',
  'context_management',
  'diagnostics',
  'fallbacks',
]);
/** Tools the caller executes (their calls come back as tool_use): no server-side loop. */
const clientToolType = /^(custom|bash_\d+|text_editor_\d+|computer_\d+|memory_\d+)$/;
/** Keys whose value stands for content the upstream fetches or decrypts: not measurable from the body. */
const unmeasurableKeys = new Set(['file_id', 'encrypted_content']);

export type InputMeasure = {
  bytes: number;
  images: number;
  unmeasurable: boolean;
  cacheWrite5m: boolean;
  cacheWrite1h: boolean;
};

/**
 * Where a value sits, as far as images go: the body, a message, a content block (an element of a message's content,
 * of a tool result's content or of a content document's), a document's source, or anywhere else. Only
 * a content block of type `image` is read by the upstream as an image; the same shape anywhere else (inside a
 * tool_use's input, a tool's schema) is JSON text the upstream reads and bills as text, so it is measured as text.
 * (A security review hid a megabyte of text in `{"type":"image","text":…}` inside tool call arguments, reserved as
 * one image.)
 */
export type Place = 'body' | 'message' | 'block' | 'document source' | 'other';

function childPlace(place: Place, obj: Record<string, unknown>, key: string): Place {
  if (place === 'body' && key === 'messages') return 'message';
  if (place === 'message' && key === 'content') return 'block';
  if (place === 'block' && key === 'content' && obj.type === 'tool_result') return 'block';
  // A document whose source is content blocks holds images the upstream reads as images.
  if (place === 'block' && key === 'source' && obj.type === 'document') return 'document source';
  if (place === 'document source' && key === 'content' && obj.type === 'content') return 'block';
  return 'other';
}

/** Walks a value without recursion (a deeply nested body cannot exhaust the stack). */
export function measureInput(root: unknown, measure?: InputMeasure, place: Place = 'body'): InputMeasure {
  const acc = measure ?? { bytes: 0, images: 0, unmeasurable: false, cacheWrite5m: false, cacheWrite1h: false };
  const stack: [unknown, Place][] = [[root, place]];
  while (stack.length > 0) {
    const [value, place] = stack.pop() as [unknown, Place];
    if (typeof value === 'string') {
      acc.bytes += Buffer.byteLength(value, 'utf8') + 2;
    } else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      acc.bytes += String(value).length;
    } else if (Array.isArray(value)) {
      acc.bytes += 2 + value.length;
      for (const v of value) stack.push([v, place]);
    } else if (typeof value === 'object' && value !== undefined) {
      const obj = value as Record<string, unknown>;
      if (place === 'block' && obj.type === 'image') {
        // Its source (base64 data, a URL, a file) is a resized image to the upstream; any other field is text.
        acc.images += 1;
        for (const [key, v] of Object.entries(obj)) {
          if (key === 'source') continue;
          acc.bytes += Buffer.byteLength(key, 'utf8') + 4;
          stack.push([v, 'other']);
        }
        continue;
      }
      if (obj.type === 'redacted_thinking') acc.unmeasurable = true;
      if (obj.type === 'document') {
        const source = obj.source as { type?: unknown } | undefined;
        if (source?.type !== 'text' && source?.type !== 'content') acc.unmeasurable = true;
      }
      noteCacheControl(acc, obj.cache_control);
      acc.bytes += 2;
      for (const [key, v] of Object.entries(obj)) {
        if (unmeasurableKeys.has(key)) acc.unmeasurable = true;
        if (key === 'source' && v && typeof v === 'object' && 'url' in v) acc.unmeasurable = true;
        acc.bytes += Buffer.byteLength(key, 'utf8') + 4;
        stack.push([v, childPlace(place, obj, key)]);
      }
    }
  }
  return acc;
}

type Body = Record<string, unknown>;

function serverTools(body: Body): Record<string, unknown>[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools.filter(
    (t): t is Record<string, unknown> =>
      !!t && typeof t === 'object' && typeof t.type === 'string' && !clientToolType.test(t.type),
  );
}

/** A tool's `max_uses` when it names one the upstream can honour (a safe integer: beyond, sums stop being exact). */
const maxUses = (tool: Record<string, unknown>) =>
  typeof tool.max_uses === 'number' && Number.isSafeInteger(tool.max_uses) && tool.max_uses >= 0
    ? tool.max_uses
    : undefined;

export type MessagesBound = {
  /** Input tokens over every pass. */
  inputTokens: number;
  outputTokens: number;
  passes: number;
  webSearchRequests: number;
  webFetchRequests: number;
  cacheWrite5m: boolean;
  cacheWrite1h: boolean;
};

/** Web requests of the web tools of one kind: the `max_uses` they declare, and how many declare none. */
type WebTools = { declared: number; undeclared: number };

/**
 * What a body asks for, read in one walk: every model's bound follows from it in constant time. (A security review
 * sent thousands of `fallbacks` naming models: the body was walked once per model, quadratic in its size, and a
 * 460 KB body held the API's main loop for a minute.)
 */
export type BodyDemand = {
  measure: InputMeasure;
  /** Tokens of the first pass before the window caps it. */
  firstPass: number;
  /** Server-side tool loop: none, bounded by the tools' `max_uses` (their sum), or by the model's pass limit. */
  loop: 'none' | 'declared' | 'model';
  declaredUses: number;
  /** Passes that do not depend on the model: compaction edits and fallback attempts. */
  extraPasses: number;
  maxOutputTokens: number;
  webSearch: WebTools;
  webFetch: WebTools;
};

function webTools(server: Record<string, unknown>[], kind: RegExp): WebTools {
  const out: WebTools = { declared: 0, undeclared: 0 };
  for (const tool of server) {
    if (!kind.test(String(tool.type))) continue;
    const uses = maxUses(tool);
    if (uses === undefined) out.undeclared += 1;
    else out.declared += uses;
  }
  return out;
}

/** Which cache writes a `cache_control` value asks for: 1-hour ones for `ttl: "1h"`, else 5-minute ones. */
function noteCacheControl(acc: InputMeasure, cacheControl: unknown): void {
  if (!cacheControl || typeof cacheControl !== 'object') return;
  if ((cacheControl as { ttl?: unknown }).ttl === '1h') acc.cacheWrite1h = true;
  else acc.cacheWrite5m = true;
}

/** Reads a Messages body once (linear in its size, iterative). */
export function bodyDemand(body: Body): BodyDemand {
  const measure = measureInput(null);
  for (const [key, value] of Object.entries(body)) {
    if (!measuredFields.has(key)) measure.unmeasurable = true;
    if (key === 'metadata' || key === 'model') continue;
    measureInput(value, measure, key === 'messages' ? 'message' : 'other');
  }
  // Automatic caching: the top-level `cache_control`, whose `ttl: "1h"` bills 1-hour writes as a block's does (until a
  // review, held at the 5-minute price: security review #119).
  noteCacheControl(measure, body.cache_control);
  const tools = Array.isArray(body.tools) ? body.tools : [];
  let firstPass = measure.bytes + measure.images * IMAGE_TOKENS;
  if (tools.length > 0) firstPass += TOOL_PROMPT_TOKENS;
  for (const tool of tools) {
    if (
      tool &&
      typeof tool === 'object' &&
      typeof (tool as Body).type === 'string' &&
      (tool as Body).type !== 'custom'
    ) {
      firstPass += DEFINED_TOOL_TOKENS;
    }
  }

  const server = serverTools(body);
  let loop: BodyDemand['loop'] = 'none';
  let declaredUses = 0;
  if (server.length > 0 || body.mcp_servers !== undefined || body.container !== undefined) {
    const declared = server.map(maxUses);
    const allDeclared = server.length > 0 && declared.every((m) => m !== undefined) && body.mcp_servers === undefined;
    loop = allDeclared ? 'declared' : 'model';
    declaredUses = declared.reduce<number>((s, m) => s + (m ?? 0), 0);
  }
  const edits = (body.context_management as { edits?: unknown } | undefined)?.edits;
  const compactions = Array.isArray(edits)
    ? edits.filter((e) => !String((e as Body | null)?.type ?? '').startsWith('clear_')).length
    : 0;
  const fallbacks = Array.isArray(body.fallbacks) ? body.fallbacks.length : 0;
  return {
    measure,
    firstPass,
    loop,
    declaredUses,
    extraPasses: compactions + fallbacks,
    maxOutputTokens: maxOutputTokens(body),
    webSearch: webTools(server, /^web_search_/),
    webFetch: webTools(server, /^web_fetch_/),
  };
}

/** The most tokens and server requests a request of `demand` can be billed, for a model with `window` and `loopLimit`. */
export function boundOf(
  demand: BodyDemand,
  limits: { contextWindowTokens: number; serverToolPasses: number },
): MessagesBound {
  const window = limits.contextWindowTokens;
  const loopLimit = limits.serverToolPasses;
  const firstPass = Math.min(demand.measure.unmeasurable ? window : demand.firstPass, window);
  const loopPasses =
    demand.loop === 'none' ? 0 : demand.loop === 'declared' ? Math.min(demand.declaredUses, loopLimit) : loopLimit;
  const passes = 1 + loopPasses + demand.extraPasses;
  const webRequests = (tools: WebTools) => tools.declared + tools.undeclared * loopLimit * WEB_REQUESTS_PER_PASS;
  return {
    inputTokens: firstPass + (passes - 1) * window,
    outputTokens: demand.maxOutputTokens * passes,
    passes,
    webSearchRequests: webRequests(demand.webSearch),
    webFetchRequests: webRequests(demand.webFetch),
    cacheWrite5m: demand.measure.cacheWrite5m,
    cacheWrite1h: demand.measure.cacheWrite1h,
  };
}

/** The most tokens and server requests a request can be billed, for a model with `window` and `loopLimit`. */
export function messagesBound(
  body: Body,
  limits: { contextWindowTokens: number; serverToolPasses: number },
): MessagesBound {
  return boundOf(bodyDemand(body), limits);
}

/** The largest max_tokens among the request and its fallback attempts. */
function maxOutputTokens(body: Body): number {
  let most = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  for (const f of Array.isArray(body.fallbacks) ? body.fallbacks : []) {
    const m = (f as Body | null)?.max_tokens;
    if (typeof m === 'number' && Number.isSafeInteger(m) && m > most) most = m;
  }
  return most;
}

/** The dearest a token of each class can cost at one model (exact, over EXACT_DENOMINATOR per token; web requests in
 * micro-USD each). */
type ClassPrices = { input: bigint; output: bigint; webSearch: bigint; webFetch: bigint };

/** What `model` charges a token of each class of `bound`: every input token at the dearest input price the request can
 * reach (plain, cache read, the cache writes it asks for), every token price times the request's price-raising options
 * (fast mode, US-only inference) as the settlement prices it, at the model's long-context prices when the bound's input
 * is over their threshold. The bound's input is at least the input of any one (sub-)inference of the request (one token
 * per byte, whole windows per extra pass), so a (sub-)inference the settlement can bill at the long-context prices is
 * held at them, and a request whose bound stays under is not. */
function classPricesAt(model: ModelEntry, bound: MessagesBound, options: PriceOptionValues | undefined): ClassPrices {
  const p = tokenPricesFor(model, bound.inputTokens);
  const multipliers = priceMultipliersOf(model, options);
  const inputPrice = Math.max(
    p.inputPerMTok,
    p.cacheReadPerMTok,
    bound.cacheWrite5m || bound.cacheWrite1h ? p.cacheWritePerMTok : 0,
    bound.cacheWrite1h ? p.cacheWrite1hPerMTok : 0,
  );
  return {
    input: exactTokenPrice(inputPrice, multipliers),
    output: exactTokenPrice(p.outputPerMTok, multipliers),
    webSearch: usdToMicros(model.prices.webSearchPerRequest ?? 0),
    webFetch: usdToMicros(model.prices.webFetchPerRequest ?? 0),
  };
}

const larger = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * What to reserve for a Messages request served by `models` (its own, its fallbacks', its advisor tools'), with the
 * price-raising option values `options` (checked by priceOptionsOf). The settlement bills the advisor sub-inferences
 * at their advisor model and the rest at the model that answered (docs/gateway.md "What is billed"), so one answer
 * mixes models: the hold is the bound's tokens at the largest window and pass limit among the models, each token class
 * at the dearest price any of them reaches for it (multipliers and long-context tiers included), summed exactly and
 * rounded up once, as the settlement rounds its parts' exact sum once. (Until a security review it was the dearest of
 * the whole bound priced at each model alone: an executor with the dearest output and an advisor with the dearest
 * input settled above the hold.) Linear: the body is walked once, each distinct model priced once.
 */
export function messagesReservationMicros(body: Body, models: ModelEntry[], options?: PriceOptionValues): bigint {
  // A body may name the same few registry models thousands of times: each is priced once.
  const distinct = [...new Set(models)];
  if (distinct.length === 0) return 0n;
  const bound = boundOf(bodyDemand(body), {
    contextWindowTokens: Math.max(...distinct.map((m) => m.contextWindowTokens)),
    serverToolPasses: Math.max(...distinct.map((m) => m.serverToolPasses)),
  });
  const dearest: ClassPrices = { input: 0n, output: 0n, webSearch: 0n, webFetch: 0n };
  for (const model of distinct) {
    const at = classPricesAt(model, bound, options);
    dearest.input = larger(dearest.input, at.input);
    dearest.output = larger(dearest.output, at.output);
    dearest.webSearch = larger(dearest.webSearch, at.webSearch);
    dearest.webFetch = larger(dearest.webFetch, at.webFetch);
  }
  const tokens = BigInt(bound.inputTokens) * dearest.input + BigInt(bound.outputTokens) * dearest.output;
  return (
    roundUpMicros(tokens) +
    BigInt(bound.webSearchRequests) * dearest.webSearch +
    BigInt(bound.webFetchRequests) * dearest.webFetch
  );
}
