// How to start using an item, from what the API publishes for its shown version: an MCP server's client
// configuration per connection (one tab per client form), a skill's bundle and where its folder goes, an agent's package, a soul's prompt.
// Copying a snippet or following a download counts one `install` telemetry event, as the page counts its `view`.
import { Fragment, useState } from 'react';
import { apiPath } from '../../api/paths.js';
import { formatBytes } from '../../format.js';
import { CopyButton } from '../../ui/copy-button.js';
import { type TabItem, Tabs } from '../../ui/tabs.js';
import { type ItemType, recordEvent, type SkillBundle, type VersionDetail } from './hub-api.js';
import { type ClientConfig, type ClientSnippet, clientConfigs, type McpClient } from './mcp-client-config.js';

type Props = { type: ItemType; slug: string; version: VersionDetail };

function Snippet({ label, text, onCopied }: { label: string; text: string; onCopied?: () => void }) {
  return (
    <div className="snippet">
      <pre data-testid="install-snippet">
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={`Copy ${label.toLowerCase()}`} {...(onCopied ? { onCopied } : {})} />
    </div>
  );
}

const configTitle = (c: ClientConfig) =>
  c.command ? `Run locally with ${c.command}` : `Connect to the hosted server (${c.transport})`;

const clientTabs: TabItem<McpClient>[] = [
  { key: 'mcp-servers', label: 'Claude Desktop, Cursor' },
  { key: 'vscode', label: 'VS Code' },
  { key: 'claude-code', label: 'Claude Code' },
];

/** Where the selected client's snippet goes, said once above the connections' snippets. */
function ClientIntro({ client }: { client: McpClient }) {
  if (client === 'vscode') {
    return (
      <p>
        Add it to <code>.vscode/mcp.json</code> in a workspace, or to your user <code>mcp.json</code> (MCP: Open User
        Configuration), merging its <code>servers</code> and <code>inputs</code> into those already there.
      </p>
    );
  }
  if (client === 'claude-code') {
    return (
      <p>
        Run it in a terminal, in your project: Claude Code adds the server for you in this project (add{' '}
        <code>--scope user</code> after <code>add</code> for every project).
      </p>
    );
  }
  return (
    <p>
      Add it to the <code>mcpServers</code> of your client's configuration: <code>claude_desktop_config.json</code> for
      Claude Desktop (local servers), <code>.cursor/mcp.json</code> for Cursor.
    </p>
  );
}

/** Names list: `<code>A</code>, <code>B</code>`. */
const codeList = (names: string[]) =>
  names.map((name, i) => (
    <Fragment key={name}>
      {i > 0 ? ', ' : ''}
      <code>{name}</code>
    </Fragment>
  ));

/**
 * What one snippet leaves to the reader, said above it and only for it: the placeholders to replace, the inputs VS
 * Code asks for. A hosted server's URL configuration has neither, so nothing is said above it.
 */
function Placeholders({ snippet }: { snippet: ClientSnippet }) {
  if (snippet.toReplace.length === 0 && snippet.asked.length === 0) return null;
  return (
    <p>
      {snippet.toReplace.length > 0 ? (
        <>Replace {codeList(snippet.toReplace.map((name) => `<${name}>`))} with your own value (see Settings). </>
      ) : null}
      {snippet.asked.length > 0 ? (
        <>VS Code asks for {codeList(snippet.asked)} when it starts the server, and keeps the answer as a secret.</>
      ) : null}
    </p>
  );
}

function McpInstall({ slug, version, installed }: { slug: string; version: VersionDetail; installed: () => void }) {
  const [client, setClient] = useState<McpClient>('mcp-servers');
  const configs = clientConfigs(slug, version.connections, version.configFields);
  if (configs.length === 0) {
    return <p className="muted">This version publishes no connection to configure; its readme may say more.</p>;
  }
  const command = client === 'claude-code';
  return (
    <Tabs label="MCP client" tabs={clientTabs} selected={client} onSelect={setClient}>
      <ClientIntro client={client} />
      {configs.map((c, i) => (
        // By position too: two identical published connections have the same snippet text. The list is the
        // version's connections, in their published order.
        // biome-ignore lint/suspicious/noArrayIndexKey: identical connections differ only by position
        <section key={`${i}:${c.snippets['mcp-servers'].text}`} aria-label={configTitle(c)}>
          <h3>{configTitle(c)}</h3>
          {c.command || client !== 'mcp-servers' ? null : (
            <p className="muted">For clients that connect to a server's URL, such as Cursor.</p>
          )}
          <Placeholders snippet={c.snippets[client]} />
          <Snippet
            key={client}
            label={command ? 'Command' : 'Configuration'}
            text={c.snippets[client].text}
            onCopied={installed}
          />
        </section>
      ))}
    </Tabs>
  );
}

/** A download from the item's version: following it counts one `install`, as a copied snippet does. */
function DownloadLink({ href, installed, children }: { href: string; installed: () => void; children: string }) {
  return (
    <a href={href} rel="noopener noreferrer" onClick={installed}>
      {children}
    </a>
  );
}

function SkillBundleDownload({ bundle, installed }: { bundle: SkillBundle; installed: () => void }) {
  return (
    <p data-testid="skill-bundle">
      <DownloadLink href={bundle.url} installed={installed}>
        {`Download the bundle (.zip, ${formatBytes(bundle.sizeBytes)})`}
      </DownloadLink>{' '}
      and check its SHA-256: <code>{bundle.sha256}</code>
    </p>
  );
}

function SkillInstall({ slug, version, installed }: { slug: string; version: VersionDetail; installed: () => void }) {
  return (
    <>
      <p>
        A skill is a folder holding its <code>SKILL.md</code>. For Claude Code, unpack the bundle's folder at{' '}
        <code>~/.claude/skills/{slug}/</code> (yours, in every project) or <code>.claude/skills/{slug}/</code> inside
        one project.
      </p>
      {version.bundle ? (
        <SkillBundleDownload bundle={version.bundle} installed={installed} />
      ) : (
        <p className="muted">
          This version has no bundle stored on the hub
          {version.sourceUrl ? (
            <>
              ; get it from its source:{' '}
              <a href={version.sourceUrl} rel="noopener noreferrer">
                {version.sourceUrl}
              </a>
            </>
          ) : null}
          .
        </p>
      )}
    </>
  );
}

function PackageInstall({ version, installed }: { version: VersionDetail; installed: () => void }) {
  if (typeof version.packageUrl !== 'string') {
    return <p className="muted">This version publishes no package to download.</p>;
  }
  return (
    <p>
      <DownloadLink href={version.packageUrl} installed={installed}>
        Download the package
      </DownloadLink>
      {typeof version.checksum === 'string' ? (
        <>
          {' '}
          and check it against <code>{version.checksum}</code>
        </>
      ) : null}
      .
    </p>
  );
}

function SoulInstall({ slug, version, installed }: { slug: string; version: VersionDetail; installed: () => void }) {
  const url = `${window.location.origin}${apiPath`/api/v1/soul/${slug}/prompt.txt`}`;
  return (
    <>
      <p>
        Use its prompt as your assistant's system prompt: copy it from Prompt below, or fetch it (
        <a href={apiPath`/api/v1/soul/${slug}/prompt.txt`} onClick={installed}>
          prompt.txt
        </a>
        ):
      </p>
      <Snippet label="Command" text={`curl -fsSL ${url}`} onCopied={installed} />
      {typeof version.packageUrl === 'string' ? <PackageInstall version={version} installed={installed} /> : null}
    </>
  );
}

export function InstallPanel({ type, slug, version }: Props) {
  const installed = () => recordEvent(type, slug, 'install');
  return (
    <section className="panel install" aria-labelledby="install-heading">
      <h2 id="install-heading">Install</h2>
      {type === 'mcp' ? <McpInstall slug={slug} version={version} installed={installed} /> : null}
      {type === 'skill' ? <SkillInstall slug={slug} version={version} installed={installed} /> : null}
      {type === 'agent' ? <PackageInstall version={version} installed={installed} /> : null}
      {type === 'soul' ? <SoulInstall slug={slug} version={version} installed={installed} /> : null}
    </section>
  );
}
