// What a person pastes to call the gateway with a project key, per client: the gateway's origin and a model filled in,
// the key read from the OCKHUB_API_KEY environment variable (never written into a snippet). Each is run as written by
// the console's browser tests (curl, and both SDKs in Node), or follows the configuration docs/gateway.md checked
// with the real CLI (Claude Code, Codex).

export type GatewayClient = 'curl' | 'anthropic-ts' | 'openai-ts' | 'claude-code' | 'codex';

export const gatewayClients: { key: GatewayClient; label: string }[] = [
  { key: 'curl', label: 'curl' },
  { key: 'anthropic-ts', label: 'Anthropic SDK' },
  { key: 'openai-ts', label: 'OpenAI SDK' },
  { key: 'claude-code', label: 'Claude Code' },
  { key: 'codex', label: 'Codex CLI' },
];

export type SnippetInput = {
  /** The gateway's origin, e.g. https://ockhub.example.com (no trailing slash). */
  origin: string;
  model: string;
  /** A cheaper model for a client's background work (Claude Code's titles and `haiku` alias). */
  smallModel: string;
};

/** Where the snippet goes, and the snippet. */
export function snippetFor(client: GatewayClient, { origin, model, smallModel }: SnippetInput) {
  const body = JSON.stringify({ model, max_tokens: 1024, messages: [{ role: 'user', content: 'Hello' }] });
  switch (client) {
    case 'curl':
      return {
        intro: 'In a terminal, with the key in OCKHUB_API_KEY:',
        text: [
          `curl -s ${origin}/v1/messages \\`,
          '  -H "x-api-key: $OCKHUB_API_KEY" \\',
          '  -H "anthropic-version: 2023-06-01" \\',
          '  -H "content-type: application/json" \\',
          `  -d '${body}'`,
        ].join('\n'),
      };
    case 'anthropic-ts':
      return {
        intro: 'Node.js with @anthropic-ai/sdk (an ES module), the key in OCKHUB_API_KEY:',
        text: [
          "import Anthropic from '@anthropic-ai/sdk';",
          '',
          `const client = new Anthropic({ baseURL: '${origin}', apiKey: process.env.OCKHUB_API_KEY });`,
          'const message = await client.messages.create({',
          `  model: '${model}',`,
          '  max_tokens: 1024,',
          "  messages: [{ role: 'user', content: 'Hello' }],",
          '});',
          'console.log(message.content);',
        ].join('\n'),
      };
    case 'openai-ts':
      return {
        intro:
          'Node.js with openai (an ES module), the key in OCKHUB_API_KEY; Chat Completions and Responses are served:',
        text: [
          "import OpenAI from 'openai';",
          '',
          `const client = new OpenAI({ baseURL: '${origin}/v1', apiKey: process.env.OCKHUB_API_KEY });`,
          'const completion = await client.chat.completions.create({',
          `  model: '${model}',`,
          "  messages: [{ role: 'user', content: 'Hello' }],",
          '});',
          'console.log(completion.choices[0].message.content);',
        ].join('\n'),
      };
    case 'claude-code':
      return {
        intro: 'In a terminal, then run claude; the key in OCKHUB_API_KEY:',
        text: [
          `export ANTHROPIC_BASE_URL=${origin}`,
          'export ANTHROPIC_API_KEY=$OCKHUB_API_KEY',
          `export ANTHROPIC_MODEL=${model}`,
          `export ANTHROPIC_DEFAULT_HAIKU_MODEL=${smallModel}`,
          'claude',
        ].join('\n'),
      };
    case 'codex':
      return {
        intro: 'In ~/.codex/config.toml, the key in OCKHUB_API_KEY; then run codex:',
        text: [
          `model = "${model}"`,
          'model_provider = "ockhub"',
          'web_search = "disabled"',
          '',
          '[model_providers.ockhub]',
          'name = "ockhub"',
          `base_url = "${origin}/v1"`,
          'env_key = "OCKHUB_API_KEY"',
          'wire_api = "responses"',
        ].join('\n'),
      };
  }
}
