// The console's entry: the data cache, the router, the session and the organization, then the pages.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/http.js';
import { AppRoutes } from './app-routes.js';
import { OrganizationProvider } from './session/organization.js';
import { ME_KEY } from './session/session.js';
import './styles.css';

/** A 401 anywhere means the session ended (expired, revoked, signed out elsewhere): show the console signed out. */
const onError = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401) client.setQueryData(ME_KEY, null);
};

const client = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // Public catalog reads may be 30 s old (the API's Cache-Control); the browser revalidates them by ETag.
      staleTime: 15_000,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <BrowserRouter>
          <OrganizationProvider>
            <AppRoutes />
          </OrganizationProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
