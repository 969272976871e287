// README.md and docs/architecture.md against the repository, as a new user reads them: the settings table names
// every setting of the config schema and no other, with the schema's defaults where it states a fixed one, every
// `npm run` script they name is in package.json, every repository path they give exists, and the OpenAPI figures
// they quote (README, docs/operations.md) count the document as built.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../../api/openapi/document.js';
import { loadConfig } from '../../shared/config/index.js';
import { envSchema } from '../../shared/config/schema.js';
import { repoRoot } from '../support/harness.js';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const documents = ['README.md', 'docs/architecture.md'];

type SettingRow = { names: string[]; defaults: string[]; cell: string };

/** The rows of README's "Configuration" table: the variables of the first cell and the backticked defaults. */
function settingRows(): SettingRow[] {
  const section =
    read('README.md')
      .split(/^## Configuration$/m)[1]
      ?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*(variable|-+)\s*\|/.test(line))
    .map((line) => {
      const [, names = '', cell = ''] = line.split('|').map((c) => c.trim());
      return {
        names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string),
        defaults: [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1] as string),
        cell,
      };
    });
}

/** Defaults the table describes in words on purpose: a secret's development value, a count that follows the cores. */
const describedInWords = new Set(['SECRET_KEY', 'PASSWORD_HASH_THREADS']);

describe('README settings table', () => {
  const rows = settingRows();
  const documented = rows.flatMap((r) => r.names);

  it('documents every setting of shared/config/schema.ts once, and no setting the schema does not have', () => {
    const schema = Object.keys(envSchema.shape).sort();
    expect(documented.length).toBeGreaterThan(50);
    expect([...documented].sort()).toEqual(schema);
  });

  it("shows the schema's default of every setting that has a fixed one", () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    const wrong: string[] = [];
    for (const { names, defaults: shown, cell } of rows) {
      names.forEach((name, i) => {
        const actual = defaults[name];
        if (actual === undefined || Array.isArray(actual) || describedInWords.has(name)) return;
        const expected = String(actual);
        const ok = shown.length === names.length ? shown[i] === expected : shown.includes(expected);
        if (!ok) wrong.push(`${name}: the schema's default is ${expected}, the table says "${cell}"`);
      });
    }
    expect(wrong).toEqual([]);
  });
});

describe('README and docs/architecture.md name what exists', () => {
  const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);

  it('every `npm run` script they name is in package.json', () => {
    const named = documents.flatMap((file) =>
      [...read(file).matchAll(/npm run ([\w:-]+)/g)].map((m) => `${file}: ${m[1] as string}`),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !scripts.includes(n.split(': ')[1] as string))).toEqual([]);
  });

  it.each(documents)('%s: every repository path and relative link exists', (file) => {
    const text = read(file);
    const paths = [
      ...[
        ...text.matchAll(/(?<![\w./-])((?:\.ci|api|shared|workers|scripts|test|docs|console|config)\/[\w./-]*)/g),
      ].map((m) => (m[1] as string).replace(/[.,:;]+$/, '')),
      // A relative link is relative to the document's folder.
      ...[...text.matchAll(/\]\(([^)#\s:]+)(?:#[^)]*)?\)/g)].map((m) => path.join(path.dirname(file), m[1] as string)),
    ];
    expect(paths.length).toBeGreaterThan(10);
    // Build outputs (console/dist, dist/) exist only after a build.
    const missing = paths.filter((p) => !/^(dist|console\/dist)(\/|$)/.test(p) && !existsSync(path.join(repoRoot, p)));
    expect([...new Set(missing)]).toEqual([]);
  });
});

type Response = { content?: Record<string, { schema?: object }> };

describe('the OpenAPI figures README and docs/operations.md quote', () => {
  it('count the operations of the document and those that document a JSON success body', () => {
    let operations = 0;
    let withBody = 0;
    for (const item of Object.values(openApiDocument().paths ?? {})) {
      for (const [method, operation] of Object.entries(item as Record<string, { responses?: object }>)) {
        if (!['get', 'put', 'post', 'delete', 'patch', 'head'].includes(method)) continue;
        operations++;
        // A relayed vendor answer (`/v1/messages`) or /ready is JSON with an open schema: not a documented body.
        const responses = Object.entries(operation.responses ?? {}) as [string, Response][];
        const documented = ([status, r]: [string, Response]) =>
          status.startsWith('2') && Object.keys(r.content?.['application/json']?.schema ?? {}).length > 0;
        if (responses.some(documented)) withBody++;
      }
    }
    const figure = `${withBody} of the ${operations} operations`;
    expect(read('README.md')).toContain(figure);
    expect(read('docs/operations.md')).toContain(figure);
  });
});
