// What each model a project's keys may call costs: token prices per million for text models (and what their server
// tools add per use), per second of video, per request of web search and fetch.
import { formatCount, formatMoney } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { FormError } from '../../ui/status.js';
import { type PricedModel, useProjectModels } from './gateway-models.js';

const kinds: Record<PricedModel['capability'], string> = { messages: 'text', video: 'video', search: 'web search' };

/** The model's price in the unit it is billed by. */
function priceOf(m: PricedModel): string {
  const p = m.prices;
  if (m.capability === 'video') return `${formatMoney(p.perVideoSecond)} per second`;
  if (m.capability === 'search') return `${formatMoney(p.perRequest)} per web search or web fetch request`;
  return `${formatMoney(p.inputPerMTok)} in, ${formatMoney(p.outputPerMTok)} out per 1M tokens`;
}

/** What a text model's server tools add per use (Anthropic's `web_search`/`web_fetch` tools), when they cost anything:
 * a request that searched costs more than its tokens, and the price list should say why. */
function toolPricesOf(m: PricedModel): string | undefined {
  const { webSearchPerRequest: search, webFetchPerRequest: fetch } = m.prices;
  const parts = [
    search ? `web search tool ${formatMoney(search)} per search` : undefined,
    fetch ? `web fetch tool ${formatMoney(fetch)} per fetch` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? `plus ${parts.join(', ')}` : undefined;
}

const cacheOf = (m: PricedModel) =>
  m.capability === 'messages'
    ? `${formatMoney(m.prices.cacheReadPerMTok)} read, ${formatMoney(m.prices.cacheWritePerMTok)} write`
    : '—';

export function ModelsPanel({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const models = useProjectModels(projectId, organizationId);
  return (
    <section className="panel">
      <h2>Models and prices</h2>
      <FormError error={models.error} />
      <DataTable
        label="Models and prices"
        columns={['Model', 'Kind', 'Price', 'Prompt cache (per 1M tokens)', { label: 'Max output tokens', num: true }]}
        rows={models.data?.data}
        empty="No models are configured."
      >
        {(m) => (
          <tr key={m.id}>
            <td>
              {m.displayName}
              <div className="muted">
                <code>{m.id}</code>
              </div>
            </td>
            <td>{kinds[m.capability]}</td>
            <td>
              {priceOf(m)}
              {toolPricesOf(m) ? <div className="muted">{toolPricesOf(m)}</div> : null}
            </td>
            <td>{cacheOf(m)}</td>
            <td className="num">{m.maxOutputTokens === undefined ? '—' : formatCount(m.maxOutputTokens)}</td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}
