// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the catalog writes its placeholders literally as ${NAME}.
// A published MCP server's connections as server.json, from text a Publisher chose. Regression of security review
// #91: the `${NAME}` placeholders of arguments, URLs and headers were found with /\$\{([^}]+)\}/g, which reads to the
// end of the text from every `${` that no `}` closes, and a uvx `package==version` with a pattern whose version parts
// overlapped: both quadratic, and the mapping runs at every registry read on the API's main loop (arguments and
// headers within the draft limits cost ~0.9 s per read of one server). The texts here are far longer than a draft may
// hold: the quadratic readings took 85 s and 197 s of CPU, a linear one milliseconds. The mapping runs in a child
// process, so a test that waits for it can stop waiting (a synchronous loop in this process could not be).
import { spawn } from 'node:child_process';
import { repoRoot } from '../support/harness.js';

/**
 * toServerJson over `connections` (JavaScript, in which `U` is 100,000 unclosed `${`) in a child process; undefined
 * when it has not answered within the deadline.
 */
function serverJsonApart(connections: string): Promise<Record<string, unknown> | undefined> {
  const script = `
    import { mcpPayload } from './shared/catalog/version-payloads.ts';
    import { toServerJson } from './shared/mcp-registry/server-json.ts';
    const U = '\${'.repeat(100_000);
    const payload = mcpPayload.parse({ version: '1.0.0', configFields: [{ name: 'API_KEY', type: 'secret', required: true }] });
    payload.connections = ${connections};
    const json = toServerJson({ name: 'localhost.acme/weather', title: 'Weather', summary: 'Forecasts.', version: '1.0.0',
      sourceUrl: null, iconUrl: null, payload });
    process.stdout.write(JSON.stringify(json));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve) => {
    // A deadline far above the linear reading's milliseconds (and tsx's start) and far below the quadratic one's.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve(code === 0 ? JSON.parse(out) : undefined);
    });
  });
}

const unclosed = '${'.repeat(100_000);

it('reads arguments, headers and environment values full of unclosed ${ at once, and leaves them as written', async () => {
  const json = await serverJsonApart(`[
    { transport: 'stdio', command: 'npx', args: ['weather-mcp', '--key=\${API_KEY}' + U] },
    { transport: 'stdio', command: 'uvx', args: ['weather-py'], env: { TOKEN: U + 'x' } },
    { transport: 'streamable-http', url: 'https://mcp.example.com/', headers: { 'X-Key': 'Bearer ' + U } },
  ]`);
  expect(json).toMatchObject({
    packages: [
      {
        identifier: 'weather-mcp',
        packageArguments: [
          { type: 'positional', value: `--key={API_KEY}${unclosed}`, variables: { API_KEY: { isSecret: true } } },
        ],
      },
      {
        identifier: 'weather-py',
        environmentVariables: expect.arrayContaining([{ name: 'TOKEN', value: `${unclosed}x` }]),
      },
    ],
    remotes: [{ url: 'https://mcp.example.com/', headers: [{ name: 'X-Key', value: `Bearer ${unclosed}` }] }],
  });
}, 30_000);

it('reads a uvx package whose version is a long run of .1 with a bad end at once, as no package', async () => {
  const json = await serverJsonApart(`[
    { transport: 'stdio', command: 'uvx', args: ['weather-py==1' + '.1'.repeat(100_000) + '!'] },
    { transport: 'stdio', command: 'uvx', args: ['other-py==1.2.3rc1'] },
  ]`);
  expect(json?.packages).toEqual([
    expect.objectContaining({ identifier: 'other-py', version: '1.2.3rc1', registryType: 'pypi' }),
  ]);
}, 30_000);

it('keeps placeholders beside empty and unclosed ones, and asks for an unknown one instead of leaving it', async () => {
  const json = await serverJsonApart(
    `[{ transport: 'stdio', command: 'npx', args: ['w', '\${}\${API_KEY}\${NOPE}\${API_KEY}}{\${'] },
      { transport: 'stdio', command: 'npx', args: ['v', '$\${API_KEY}'] }]`,
  );
  // The second package would read `${API_KEY}` (a `$` before the placeholder), a reference VS Code resolves: left out (#132).
  expect(json).toMatchObject({
    packages: [
      {
        identifier: 'w',
        packageArguments: [
          {
            value: '${}{API_KEY}{NOPE}{API_KEY}}{${',
            variables: { API_KEY: { isSecret: true }, NOPE: { isRequired: true, isSecret: false } },
          },
        ],
      },
    ],
  });
}, 30_000);
