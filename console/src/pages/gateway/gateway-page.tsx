// A project's gateway traffic: its usage per day and model, its quota used today and this month against its limits, its
// video tasks (status kept live while any is open, a finished video playable here) and its recent requests with model,
// tokens, cost and status; then how to connect a client with a key of the project, and the models it may call with
// their prices.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Envelope } from '../../api/http.js';
import { apiPath, isUuid } from '../../api/paths.js';
import { formatCount, formatMoney, formatTime } from '../../format.js';
import { useLeaveOnOrganizationSwitch, useOrganization } from '../../session/organization.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { Empty, FormError, Loading, StatusBadge } from '../../ui/status.js';
import { ProjectChooser } from '../organization/project-chooser.js';
import { projectNotFound, useProjects } from '../organization/projects-api.js';
import { ConnectPanel } from './connect-panel.js';
import { GatewayQuota } from './gateway-quota.js';
import { ModelsPanel } from './models-panel.js';
import { useKeyNames } from './project-key-line.js';
import { UsagePanel } from './usage-panel.js';

type Video = {
  id: string;
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  seconds: number;
  prompt: string;
  price: number;
  videoUrl?: string;
  error?: { message: string; type?: string };
  createdAt: string;
  finishedAt?: string;
};

type RequestLog = {
  id: string;
  operation: string;
  model?: string;
  status: string;
  httpStatus?: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cost: number;
  latencyMs?: number;
  errorMessage?: string;
  apiKeyId?: string;
  createdAt: string;
};

/** A request's key by name: one the viewer cannot see (another member's, or deleted since) is "another key". */
const keyLabel = (names: Map<string, string> | undefined, id: string | undefined) =>
  id === undefined ? '—' : names ? (names.get(id) ?? 'another key') : '…';

const isOpen = (v: Video) => v.status === 'queued' || v.status === 'in_progress';

function Videos({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const videos = useQuery({
    queryKey: ['videos', projectId],
    queryFn: () =>
      api<Envelope<Video[]> & { hasMore: boolean }>(apiPath`/api/projects/${projectId}/videos`, {
        organizationId,
        query: { limit: 12 },
      }),
    refetchInterval: (q) => ((q.state.data?.data ?? []).some(isOpen) ? 2000 : false),
  });
  const rows = videos.data?.data ?? [];
  return (
    <section className="panel" aria-label="Video tasks">
      <h2>Video tasks</h2>
      <FormError error={videos.error} />
      {videos.isPending ? <Loading /> : null}
      {!videos.isPending && rows.length === 0 ? <Empty>No video tasks in this project yet.</Empty> : null}
      <ul className="videos">
        {rows.map((v) => (
          <li key={v.id} className="card" data-testid="video-task">
            <p>
              <StatusBadge status={v.status} /> <code>{v.id}</code>
            </p>
            <p>{v.prompt}</p>
            <p className="muted">
              {v.model} · {v.seconds}s ·{' '}
              {v.status === 'failed' || v.status === 'cancelled' ? 'not charged' : formatMoney(v.price)} ·{' '}
              {formatTime(v.createdAt)}
            </p>
            {isOpen(v) ? (
              <label className="stack">
                Progress
                <progress className="progress" max={100} value={v.progress} />
              </label>
            ) : null}
            {v.status === 'completed' && v.videoUrl ? (
              // biome-ignore lint/a11y/useMediaCaption: generated videos come without captions
              <video controls preload="metadata" src={v.videoUrl} aria-label={`Video ${v.id}`} />
            ) : null}
            {v.error ? (
              <p className="error">
                {v.error.message} {v.error.type ? <span className="code">({v.error.type})</span> : null}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The list reaches the project's newest `reach` requests: say so once it holds that many. */
const reachedOf = (page: { total?: number | undefined; reach: number } | undefined) =>
  page && (page.total ?? 0) >= page.reach ? `the newest ${formatCount(page.reach)}` : undefined;

function Requests(props: { projectId: string; organizationId: string; isAdmin: boolean }) {
  const { projectId, organizationId } = props;
  const [page, setPage] = useState(1);
  const keyNames = useKeyNames(props);
  const requests = useQuery({
    queryKey: ['requests', projectId, page],
    queryFn: () =>
      api<Envelope<RequestLog[]> & { reach: number }>(apiPath`/api/projects/${projectId}/requests`, {
        organizationId,
        query: { page, size: 20 },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  return (
    <section className="panel">
      <h2>Recent requests</h2>
      <FormError error={requests.error} />
      <DataTable
        label="Recent requests"
        columns={[
          'Time',
          'Operation',
          'Model',
          'Key',
          { label: 'Tokens in', num: true },
          { label: 'Tokens out', num: true },
          { label: 'Cost', num: true },
          'Status',
          { label: 'Latency', num: true },
        ]}
        rows={requests.data?.data}
        busy={requests.isPlaceholderData}
        empty={
          <>
            No gateway requests yet. Send one to <code>{window.location.origin}/v1/messages</code> with an API key of
            this project: make one on <Link to={`/account/keys?project=${projectId}`}>Account › API keys</Link>,
            choosing this project.
          </>
        }
      >
        {(r) => (
          <tr key={r.id}>
            <td>{formatTime(r.createdAt)}</td>
            <td>{r.operation}</td>
            <td>{r.model ?? '—'}</td>
            <td>{keyLabel(keyNames, r.apiKeyId)}</td>
            <td className="num">{formatCount(r.inputTokens)}</td>
            <td className="num">{formatCount(r.outputTokens)}</td>
            <td className="num">{formatMoney(r.cost)}</td>
            <td>
              <StatusBadge status={r.status} /> {r.httpStatus ?? ''}
              {r.errorMessage ? <div className="muted">{r.errorMessage}</div> : null}
            </td>
            <td className="num">{r.latencyMs === undefined ? '—' : `${r.latencyMs} ms`}</td>
          </tr>
        )}
      </DataTable>
      <Pager
        label="Request pages"
        page={page}
        pageSize={20}
        total={requests.data?.total}
        totalOf={reachedOf(requests.data)}
        onPage={setPage}
      />
    </section>
  );
}

export function GatewayPage() {
  const { projectId } = useParams();
  const { current } = useOrganization();
  const firstPage = useProjects(current?.id);
  const navigate = useNavigate();
  useLeaveOnOrganizationSwitch('/gateway', Boolean(projectId));
  const chosen = projectId ?? firstPage.data?.data[0]?.id;
  return (
    <Page title="Gateway">
      {!current ? (
        <p>
          Gateway calls belong to a project of an organization: <Link to="/org">create an organization</Link> or accept
          an invite first.
        </p>
      ) : null}
      {current && chosen ? (
        <>
          <ProjectChooser
            organizationId={current.id}
            label="Project"
            value={chosen}
            onChange={(id) => navigate(`/gateway/${id}`)}
          />
          {isUuid(chosen) ? (
            <>
              <UsagePanel projectId={chosen} organizationId={current.id} />
              <GatewayQuota projectId={chosen} organizationId={current.id} isAdmin={current.role === 'Admin'} />
              <Videos projectId={chosen} organizationId={current.id} />
              <Requests projectId={chosen} organizationId={current.id} isAdmin={current.role === 'Admin'} />
              <ConnectPanel projectId={chosen} organizationId={current.id} isAdmin={current.role === 'Admin'} />
              <ModelsPanel projectId={chosen} organizationId={current.id} />
            </>
          ) : (
            // An address whose id is no UUID names no project: its not-found state, no request built from it.
            <FormError error={projectNotFound()} />
          )}
        </>
      ) : null}
      {firstPage.data && !chosen ? (
        <Empty>
          This organization has no projects yet. Gateway calls belong to a project:{' '}
          {current?.role === 'Admin' ? 'create one' : 'an organization Admin creates them'} on{' '}
          <Link to="/org/projects">the Projects page</Link>.
        </Empty>
      ) : null}
      <FormError error={firstPage.error} />
    </Page>
  );
}
