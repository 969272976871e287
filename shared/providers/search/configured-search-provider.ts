// The search adapter named by UPSTREAM_SEARCH_KIND (`tavily` by default, or `brave`).
import type { Config } from '../../config/index.js';
import { braveSearchProvider } from './brave-search.js';
import type { SearchProvider } from './search-provider.js';
import { tavilySearchProvider } from './tavily-search.js';

export function searchProvider(config: Config): SearchProvider {
  return config.UPSTREAM_SEARCH_KIND === 'brave' ? braveSearchProvider(config) : tavilySearchProvider(config);
}
