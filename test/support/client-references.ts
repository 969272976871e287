// The `${…}` references an MCP client resolves in a configuration text, found the way VS Code's
// ConfigurationResolverExpression finds them: from each `${`, braces counted to the one that closes it; an unclosed
// one is skipped. VS Code then resolves `${env:…}` from the person's environment and runs `${command:…}`.
export function clientReferences(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('${'); at >= 0; ) {
    let depth = 1;
    let end = at + 2;
    for (; end < text.length && depth > 0; end++) depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
    if (depth === 0) found.push(text.slice(at, end));
    at = text.indexOf('${', depth === 0 ? end : at + 2);
  }
  return found;
}
