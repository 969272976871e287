// The type-specific part of a version, as the seed's "Version detail" names it: an MCP server's connections,
// tools, resources, prompts, settings and permissions; a skill's bundle files, parameters, dependencies and
// examples; an agent's or soul's package. VersionContents adds what every version has (license, source, changelog,
// readme) and, where asked, a soul's SOUL.md: all a moderator must see before approving.
import { useState } from 'react';
import { isCodeFile } from '../../../../shared/catalog/version-payloads.js';
import { formatBytes, formatCount } from '../../format.js';
import type { ItemType, VersionDetail } from './hub-api.js';

type Named = { name?: string; title?: string; description?: string } & Record<string, unknown>;

const list = (value: unknown): Named[] => (Array.isArray(value) ? (value as Named[]) : []);
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function NamedList({ title, items }: { title: string; items: Named[] }) {
  if (items.length === 0) return null;
  return (
    <section>
      <h3>
        {title} ({formatCount(items.length)})
      </h3>
      <ul className="plain">
        {items.map((i, n) => (
          <li key={`${i.name ?? i.title ?? n}`}>
            <code>{i.name ?? i.title ?? text(i)}</code>
            {i.description ? <span className="muted"> — {i.description}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Lines of an example shown before "Show all": a screenful of a few examples, not one long file. */
export const EXAMPLE_PREVIEW_LINES = 12;

type Example = { title?: string; path?: string; content?: string };

/** `text` without the line ends it finishes with (a loop, not /\n+$/, which is quadratic on many line ends). */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end);
}

/** One example: its title and its text, preformatted, the first lines of a long one until asked for the rest. */
function ExampleEntry({ example, n }: { example: Example; n: number }) {
  const [whole, setWhole] = useState(false);
  const lines = withoutTrailingNewlines(example.content ?? '').split('\n');
  const long = lines.length > EXAMPLE_PREVIEW_LINES;
  const shown = long && !whole ? lines.slice(0, EXAMPLE_PREVIEW_LINES).join('\n') : lines.join('\n');
  return (
    <li className="example">
      <strong>{example.title ?? `Example ${n + 1}`}</strong>
      {example.path && example.path !== example.title ? (
        <span className="muted">
          {' '}
          <code>{example.path}</code>
        </span>
      ) : null}
      {example.content ? <pre className="prose">{shown}</pre> : null}
      {long ? (
        <button type="button" className="link" aria-expanded={whole} onClick={() => setWhole(!whole)}>
          {whole ? 'Show less' : `Show all ${formatCount(lines.length)} lines`}
        </button>
      ) : null}
    </li>
  );
}

/** A skill's examples (docs/skill-bundles.md: `{title, source, path?, content?}`, or plain text from a manifest). */
function ExampleList({ items }: { items: unknown[] }) {
  if (items.length === 0) return null;
  const examples = items.map((e): Example => (typeof e === 'string' ? { content: e } : (e as Example)));
  return (
    <section aria-label="Examples">
      <h3>Examples ({formatCount(examples.length)})</h3>
      <ul className="plain">
        {examples.map((e, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a version's examples never change order, and titles may repeat
          <ExampleEntry key={n} example={e} n={n} />
        ))}
      </ul>
    </section>
  );
}

function McpFields({ v }: { v: VersionDetail }) {
  const connections = list(v.connections);
  const permissions = Array.isArray(v.permissions) ? (v.permissions as string[]) : [];
  return (
    <>
      {connections.length > 0 ? (
        <section>
          <h3>Connections</h3>
          <ul className="plain">
            {connections.map((c) => (
              <li key={JSON.stringify(c)}>
                <span className="badge">{text(c.transport)}</span>{' '}
                <code>
                  {c.url ? text(c.url) : [c.command, ...list(c.args).map(text)].filter(Boolean).map(text).join(' ')}
                </code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <NamedList title="Tools" items={list(v.tools)} />
      <NamedList title="Resources" items={list(v.resources)} />
      <NamedList title="Prompts" items={list(v.prompts)} />
      <NamedList title="Settings" items={list(v.configFields)} />
      {permissions.length > 0 ? (
        <section>
          <h3>Permissions</h3>
          <p>{permissions.join(', ')}</p>
        </section>
      ) : null}
    </>
  );
}

const SHOWN_CODE_FILES = 5;

/** Who reads a version: a person installing it from the hub (the default), or a moderator reviewing it. */
export type Reader = 'installer' | 'reviewer';

/**
 * Whether the bundle runs code, from the API's `executesCode` for this version (absent until the bundle is parsed),
 * said before its files, so a person installing or reviewing the skill sees it first; the code files by the same rule.
 * The installer is told to read them before installing; the reviewer what the bundle will run and what to check.
 */
function RunsCode({ v, files, reader }: { v: VersionDetail; files: { path?: string }[]; reader: Reader }) {
  if (v.executesCode === false) {
    return reader === 'reviewer' ? (
      <p className="muted">
        Runs no code: the bundle holds no scripts or programs. Its instructions (SKILL.md) still tell the agent what to
        do: check them.
      </p>
    ) : (
      <p className="muted">Runs no code: this skill's bundle holds no scripts or programs.</p>
    );
  }
  if (v.executesCode !== true) return null;
  const code = files.map((f) => f.path ?? '').filter(isCodeFile);
  const more = code.length - SHOWN_CODE_FILES;
  const named =
    code.length > 0 ? (
      <>
        {' ('}
        {code.slice(0, SHOWN_CODE_FILES).map((path, i) => (
          <span key={path}>
            {i > 0 ? ', ' : null}
            <code>{path}</code>
          </span>
        ))}
        {more > 0 ? ` and ${formatCount(more)} more` : null})
      </>
    ) : null;
  if (reader === 'reviewer') {
    return (
      <p className="runs-code" role="note">
        <strong>Runs code:</strong> once approved, agents that use this skill may run its scripts or programs on their
        users' computers{named}. Open each one below and check that it does only what the description says: nothing that
        reads keys or credentials, sends files or data away, downloads and runs more code, or changes the system.
      </p>
    );
  }
  return (
    <p className="runs-code" role="note">
      <strong>Runs code:</strong> this skill's bundle holds scripts or programs that an agent using it may run on your
      computer{named}. Read them before you install it.
    </p>
  );
}

function SkillFields({ v, reader }: { v: VersionDetail; reader: Reader }) {
  const files = list(v.bundleFiles) as { path?: string; size?: number }[];
  return (
    <>
      <RunsCode v={v} files={files} reader={reader} />
      {files.length > 0 ? (
        <section>
          <h3>Bundle files ({formatCount(files.length)})</h3>
          <ul className="plain">
            {files.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <span className="muted">{formatBytes(f.size)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {v.bundle ? (
        <section>
          <h3>Bundle</h3>
          <dl className="facts">
            <dt>Download</dt>
            <dd>
              <a href={v.bundle.url} download>
                {`.zip, ${formatBytes(v.bundle.sizeBytes)}`}
              </a>
            </dd>
            <dt>SHA-256</dt>
            <dd>
              <code>{v.bundle.sha256}</code>
            </dd>
          </dl>
        </section>
      ) : null}
      <NamedList title="Parameters" items={list(v.parameters)} />
      <NamedList
        title="Dependencies"
        items={list(v.dependencies).map((d) => (typeof d === 'string' ? { name: d } : d))}
      />
      <ExampleList items={Array.isArray(v.examples) ? v.examples : []} />
    </>
  );
}

function PackageFields({ v }: { v: VersionDetail }) {
  if (!v.packageUrl && !v.checksum) return null;
  return (
    <section>
      <h3>Package</h3>
      <dl className="facts">
        {v.packageUrl ? (
          <>
            <dt>Package URL</dt>
            <dd>
              <code>{text(v.packageUrl)}</code>
            </dd>
          </>
        ) : null}
        {v.checksum ? (
          <>
            <dt>Checksum</dt>
            <dd>
              <code>{text(v.checksum)}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function TypeFields(props: { type: ItemType; version: VersionDetail; reader?: Reader }) {
  const { type, version } = props;
  switch (type) {
    case 'mcp':
      return <McpFields v={version} />;
    case 'skill':
      return <SkillFields v={version} reader={props.reader ?? 'installer'} />;
    default:
      return <PackageFields v={version} />;
  }
}

/**
 * A version's whole content: license and source, changelog, the type's fields, a soul's SOUL.md (`withSoulMd`: the
 * hub shows the assembled prompt instead) and the readme (folded when `foldReadme`).
 */
export function VersionContents(props: {
  type: ItemType;
  version: VersionDetail;
  withSoulMd?: boolean;
  foldReadme?: boolean;
  /** Who reads it (the "Runs code" note speaks to them); an installer unless said. */
  reader?: Reader;
}) {
  const v = props.version;
  const soulMd = props.withSoulMd && typeof v.soulMd === 'string' ? v.soulMd : undefined;
  return (
    <>
      {v.license || v.sourceUrl ? (
        <dl className="facts">
          {v.license ? (
            <>
              <dt>License</dt>
              <dd>{v.license}</dd>
            </>
          ) : null}
          {v.sourceUrl ? (
            <>
              <dt>Source</dt>
              <dd>
                <a href={v.sourceUrl} rel="noopener noreferrer">
                  {v.sourceUrl}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {v.changelog ? <p>{v.changelog}</p> : null}
      <TypeFields type={props.type} version={v} {...(props.reader ? { reader: props.reader } : {})} />
      {soulMd ? (
        <section>
          <h3>SOUL.md</h3>
          <pre className="prose">{soulMd}</pre>
        </section>
      ) : null}
      {v.readme && props.foldReadme ? (
        <details>
          <summary>Readme</summary>
          <pre className="prose">{v.readme}</pre>
        </details>
      ) : null}
      {v.readme && !props.foldReadme ? (
        <section>
          <h3>Readme</h3>
          <pre className="prose">{v.readme}</pre>
        </section>
      ) : null}
    </>
  );
}
