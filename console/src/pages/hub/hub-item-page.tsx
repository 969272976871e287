// One published item: its description, counts, how to install the shown version, that version with its
// type-specific fields, the versions list (any published version can be opened), a soul's prompt, the rating, and
// the report form for signed-in people.
import { useEffect } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { apiPath } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ItemStats } from '../../ui/item-stats.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading } from '../../ui/status.js';
import {
  type ItemType,
  isItemType,
  recordEvent,
  typeLabels,
  useItem,
  useSoulPrompt,
  useVersion,
  useVersions,
  type VersionDetail,
} from './hub-api.js';
import { InstallPanel } from './install-panel.js';
import { RatingControl } from './rating-control.js';
import { ReportForm } from './report-form.js';
import { VersionContents } from './type-fields.js';

function VersionPanel({ type, version }: { type: ItemType; version: VersionDetail }) {
  return (
    <section className="panel" aria-label={`Version ${version.version}`}>
      <h2>Version {version.version}</h2>
      <p className="muted">Published {formatTime(version.publishedAt)}</p>
      <VersionContents type={type} version={version} foldReadme />
    </section>
  );
}

function SoulPrompt({ slug, onCopied }: { slug: string; onCopied: () => void }) {
  const prompt = useSoulPrompt(slug, true);
  if (!prompt.data) return <FormError error={prompt.error} />;
  return (
    <section className="panel">
      <h2>Prompt</h2>
      <pre className="prose" data-testid="soul-prompt">
        {prompt.data}
      </pre>
      <CopyButton text={prompt.data} label="Copy prompt" onCopied={onCopied} />{' '}
      <a href={apiPath`/api/v1/soul/${slug}/prompt.txt`}>prompt.txt</a>
    </section>
  );
}

export function HubItemPage() {
  const { type, slug } = useParams();
  if (!isItemType(type) || !slug) return <Navigate to="/hub/mcp" replace />;
  return <HubItem type={type} slug={slug} />;
}

function HubItem({ type, slug }: { type: ItemType; slug: string }) {
  const [params, setParams] = useSearchParams();
  const item = useItem(type, slug);
  const versions = useVersions(type, slug);
  const chosen = params.get('version') ?? undefined;
  const other = useVersion(type, slug, chosen && chosen !== item.data?.currentVersion.version ? chosen : undefined);
  // A view of an item that is there: an address that names none (404) sends nothing, which the API would refuse.
  const found = item.data !== undefined;
  useEffect(() => {
    if (found) recordEvent(type, slug, 'view');
  }, [type, slug, found]);

  if (item.isPending) return <Loading />;
  if (!item.data) {
    return (
      <Page title="Item not found">
        <FormError error={item.error} />
        <Link to={`/hub/${type}`}>Back to {typeLabels[type]}</Link>
      </Page>
    );
  }
  const data = item.data;
  const shown = other.data ?? data.currentVersion;
  return (
    <Page title={data.name}>
      <p className="muted">
        <Link to={`/hub/${type}`}>{typeLabels[type]}</Link> · by {data.publisherName}{' '}
        <span className={`badge badge-${data.source}`}>{data.source === 'official' ? 'official' : 'community'}</span>
      </p>
      <p className="lead">{data.summary}</p>
      <ItemStats stats={data.stats} />
      <div className="columns">
        <div>
          <section className="panel">
            <h2>About</h2>
            <p className="prose">{data.description}</p>
            {data.tags.length ? (
              <p className="tags">
                {data.tags.map((t) => (
                  <Link key={t} className="tag" to={`/hub/${type}?tag=${t}`}>
                    #{t}
                  </Link>
                ))}
              </p>
            ) : null}
          </section>
          <InstallPanel type={type} slug={slug} version={shown} />
          <VersionPanel type={type} version={shown} />
          {type === 'soul' ? <SoulPrompt slug={slug} onCopied={() => recordEvent(type, slug, 'install')} /> : null}
        </div>
        <aside>
          <section className="panel" aria-labelledby="rating-heading">
            <h2 id="rating-heading">Rating</h2>
            <RatingControl type={type} slug={slug} item={data} />
          </section>
          <section className="panel">
            <h2>Versions</h2>
            <ul className="plain" aria-label="Published versions">
              {(versions.data ?? []).map((v) => (
                <li key={v.id}>
                  <button
                    type="button"
                    className="link"
                    aria-pressed={v.version === shown.version}
                    onClick={() => setParams(v.version === data.currentVersion.version ? {} : { version: v.version })}
                  >
                    {v.version}
                  </button>{' '}
                  <span className="muted">{formatTime(v.publishedAt)}</span>
                </li>
              ))}
            </ul>
          </section>
          <section className="panel">
            <h2>Report</h2>
            <ReportForm type={type} slug={slug} />
          </section>
        </aside>
      </div>
    </Page>
  );
}
