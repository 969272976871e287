// Deterministic search results for a query: pages and images under https://example.com/ (a reserved domain that
// is never fetched), relevance scores in 0..1 deliberately not in descending order, dates inside a requested range.
import { seededRandom } from '../deterministic.js';

export type SearchHit = {
  url: string;
  title: string;
  content: string;
  rawContent: string;
  score: number;
  publishedDate: string;
};

export type SearchImage = { url: string; description: string };

const DAY_MS = 86_400_000;
/** Dates fall in the 365 days before this when the request gives no range (fixed so answers stay the same). */
const DEFAULT_END = Date.UTC(2025, 0, 1);

function slugOf(query: string): string {
  return (
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'query'
  );
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function searchHits(query: string, count: number, range: { start?: string; end?: string } = {}): SearchHit[] {
  const random = seededRandom({ query, count });
  const slug = slugOf(query);
  const end = range.end
    ? Date.parse(range.end)
    : range.start
      ? Math.max(Date.parse(range.start), DEFAULT_END)
      : DEFAULT_END;
  const start = range.start ? Date.parse(range.start) : end - 365 * DAY_MS;
  const hits: SearchHit[] = Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const score = Math.round((0.05 + random() * 0.94) * 10_000) / 10_000;
    const published = start + Math.floor(random() * (Math.floor((end - start) / DAY_MS) + 1)) * DAY_MS;
    const content = `Simulated result ${n} for "${query}": a deterministic summary from the ockhub simulated search provider.`;
    return {
      url: `https://example.com/${slug}/result-${n}`,
      title: `${query} (simulated result ${n})`,
      content,
      rawContent: `${content}\n\nThis is the full text of simulated page ${n} about ${query}. It is generated, never fetched.`,
      score,
      publishedDate: dayOf(published),
    };
  });
  const [first, second] = hits;
  if (first && second && hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score)) {
    [first.score, second.score] = [second.score, first.score];
  }
  return hits;
}

export function searchImages(query: string, count: number): SearchImage[] {
  const slug = slugOf(query);
  return Array.from({ length: count }, (_, i) => ({
    url: `https://example.com/images/${slug}-${i + 1}.png`,
    description: `Simulated image ${i + 1} for "${query}".`,
  }));
}
