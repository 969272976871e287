// The runtime ockhub supports: Node 24 LTS or later (package.json "engines"; the pinned `node` package brings it
// to every `npm run`). Every entry point imports this module first, so a process started by hand on an older Node
// (say the system's 20, past end of life) stops at once with a message and exit code 78 (configuration error)
// instead of failing later in a dependency that needs a newer runtime (undici 8).
export const MIN_NODE_MAJOR = 24;

/** Why this Node version cannot run ockhub, or undefined when it can. */
export function unsupportedNodeReason(version: string = process.versions.node): string | undefined {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return undefined;
  return (
    `ockhub needs Node.js ${MIN_NODE_MAJOR} or later; this is Node.js ${version} (${process.execPath}). ` +
    'Run it through npm (`npm start`, `npm test`, `npm run …`) or with node_modules/.bin/node, which ' +
    '`npm install` installs from the pinned `node` package.'
  );
}

const reason = unsupportedNodeReason();
if (reason) {
  process.stderr.write(`${reason}\n`);
  process.exit(78);
}
