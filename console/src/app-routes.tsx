// Every page of the console. The public hub ships in the first download; every other area loads when first opened.
// The server answers index.html for these paths (api/routes/console/console.routes.ts lists their prefixes).
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { HubItemPage } from './pages/hub/hub-item-page.js';
import { HubListPage } from './pages/hub/hub-list-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { RequireSignIn } from './session/session.js';
import { Layout } from './ui/layout.js';

const area = <T extends Record<string, React.ComponentType>>(load: () => Promise<T>, name: keyof T) =>
  lazy(async () => ({ default: (await load())[name] as React.ComponentType }));

const AccountPage = area(() => import('./pages/account/account-page.js'), 'AccountPage');
const ApiKeysPage = area(() => import('./pages/account/api-keys-page.js'), 'ApiKeysPage');
const QuotaPage = area(() => import('./pages/account/quota-page.js'), 'QuotaPage');
const JoinPage = area(() => import('./pages/organization/join-page.js'), 'JoinPage');
const PublisherPage = area(() => import('./pages/publisher/publisher-page.js'), 'PublisherPage');
const NewDraftPage = area(() => import('./pages/publisher/new-draft-page.js'), 'NewDraftPage');
const DraftPage = area(() => import('./pages/publisher/draft-page.js'), 'DraftPage');
const QueuePage = area(() => import('./pages/moderation/queue-page.js'), 'QueuePage');
const ReviewPage = area(() => import('./pages/moderation/review-page.js'), 'ReviewPage');
const ReportsPage = area(() => import('./pages/moderation/reports-page.js'), 'ReportsPage');
const DecisionsPage = area(() => import('./pages/moderation/decisions-page.js'), 'DecisionsPage');
const OrganizationPage = area(() => import('./pages/organization/organization-page.js'), 'OrganizationPage');
const MembersPage = area(() => import('./pages/organization/members-page.js'), 'MembersPage');
const ProjectsPage = area(() => import('./pages/organization/projects-page.js'), 'ProjectsPage');
const ProjectPage = area(() => import('./pages/organization/project-page.js'), 'ProjectPage');
const TemplatesPage = area(() => import('./pages/organization/templates-page.js'), 'TemplatesPage');
const WalletPage = area(() => import('./pages/organization/wallet-page.js'), 'WalletPage');
const AlertsPage = area(() => import('./pages/organization/alerts-page.js'), 'AlertsPage');
const GatewayPage = area(() => import('./pages/gateway/gateway-page.js'), 'GatewayPage');
const AccountsAdminPage = area(() => import('./pages/platform/accounts-page.js'), 'AccountsAdminPage');
const QuotaRequestsPage = area(() => import('./pages/platform/quota-requests-page.js'), 'QuotaRequestsPage');
const WalletsAdminPage = area(() => import('./pages/platform/wallets-page.js'), 'WalletsAdminPage');
const TopUpCodesPage = area(() => import('./pages/platform/top-up-codes-page.js'), 'TopUpCodesPage');
const AuditLogPage = area(() => import('./pages/platform/audit-log-page.js'), 'AuditLogPage');

const signedIn = (page: React.ReactNode, roles?: ('Publisher' | 'Moderator' | 'Admin')[]) => (
  <RequireSignIn {...(roles ? { roles } : {})}>{page}</RequireSignIn>
);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/hub/mcp" replace />} />
        <Route path="hub" element={<Navigate to="/hub/mcp" replace />} />
        <Route path="hub/:type" element={<HubListPage />} />
        <Route path="hub/:type/:slug" element={<HubItemPage />} />
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="join/:token" element={<JoinPage />} />
        <Route path="account" element={signedIn(<AccountPage />)} />
        <Route path="account/keys" element={signedIn(<ApiKeysPage />)} />
        <Route path="account/quota" element={signedIn(<QuotaPage />)} />
        <Route path="publisher" element={signedIn(<PublisherPage />, ['Publisher'])} />
        <Route path="publisher/new/:type" element={signedIn(<NewDraftPage />, ['Publisher'])} />
        <Route path="publisher/:type/:id" element={signedIn(<DraftPage />, ['Publisher'])} />
        <Route path="moderation" element={signedIn(<QueuePage />, ['Moderator', 'Admin'])} />
        <Route path="moderation/reports" element={signedIn(<ReportsPage />, ['Moderator', 'Admin'])} />
        <Route path="moderation/decisions" element={signedIn(<DecisionsPage />, ['Moderator', 'Admin'])} />
        <Route path="moderation/:type/:id" element={signedIn(<ReviewPage />, ['Moderator', 'Admin'])} />
        <Route path="org" element={signedIn(<OrganizationPage />)} />
        <Route path="org/members" element={signedIn(<MembersPage />)} />
        <Route path="org/projects" element={signedIn(<ProjectsPage />)} />
        <Route path="org/projects/:projectId" element={signedIn(<ProjectPage />)} />
        <Route path="org/templates" element={signedIn(<TemplatesPage />)} />
        <Route path="org/wallet" element={signedIn(<WalletPage />)} />
        <Route path="org/alerts" element={signedIn(<AlertsPage />)} />
        <Route path="gateway" element={signedIn(<GatewayPage />)} />
        <Route path="gateway/:projectId" element={signedIn(<GatewayPage />)} />
        <Route path="platform" element={signedIn(<AccountsAdminPage />, ['Admin'])} />
        <Route path="platform/quota-requests" element={signedIn(<QuotaRequestsPage />, ['Admin'])} />
        <Route path="platform/wallets" element={signedIn(<WalletsAdminPage />, ['Admin'])} />
        <Route path="platform/top-up-codes" element={signedIn(<TopUpCodesPage />, ['Admin'])} />
        <Route path="platform/audit-log" element={signedIn(<AuditLogPage />, ['Admin'])} />
        <Route
          path="*"
          element={
            <section className="page">
              <h1>Page not found</h1>
              <p>
                Back to <a href="/hub/mcp">the hub</a>.
              </p>
            </section>
          }
        />
      </Route>
    </Routes>
  );
}
