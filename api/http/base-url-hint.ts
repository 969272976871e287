// A sentence added to an unknown route's 404 when its path shows the commonest client set-up mistake: a base URL
// with one /v1 too many or too few. Anthropic's SDKs add `/v1/...` to their base URL, OpenAI's add `/...` to theirs.
// Any other unknown /v1 path is most often a vendor API the gateway does not serve (OpenAI's embeddings, images or
// assistants; Anthropic's batches): it says what is served.

const gatewayResource = /^\/(messages|chat\/completions|responses|models|videos|web)(\/|$)/;

export function baseUrlHint(path: string): string {
  if (path.startsWith('/v1/v1/')) {
    return (
      " The client's base URL already ends in /v1 and the client adds its own: give Anthropic's SDKs the origin " +
      "alone (such as http://localhost:3000), OpenAI's the origin with /v1."
    );
  }
  if (gatewayResource.test(path)) {
    return ` The gateway's routes start with /v1 (/v1${path}): give OpenAI's SDKs the origin with /v1 as base URL.`;
  }
  if (path.startsWith('/v1/')) {
    return (
      ' The gateway serves POST /v1/messages (and /v1/messages/count_tokens), POST /v1/chat/completions, ' +
      'POST /v1/responses, /v1/models, /v1/videos, POST /v1/web/search and POST /v1/web/fetch; other vendor APIs ' +
      '(such as OpenAI embeddings) are not served (docs/gateway.md, "Compatibility").'
    );
  }
  return '';
}
