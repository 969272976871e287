// How to call the gateway with a key of this project: its addresses, a model to name, and a snippet per client
// (curl, the Anthropic and OpenAI SDKs, Claude Code, Codex) with a copy button.
import { useState } from 'react';
import { CopyButton } from '../../ui/copy-button.js';
import { FormError, Loading } from '../../ui/status.js';
import { Tabs } from '../../ui/tabs.js';
import { type GatewayClient, gatewayClients, snippetFor } from './client-snippets.js';
import { cheapestTextModel, useProjectModels } from './gateway-models.js';
import { ProjectKeyLine } from './project-key-line.js';

export function ConnectPanel({
  projectId,
  organizationId,
  isAdmin,
}: {
  projectId: string;
  organizationId: string;
  isAdmin: boolean;
}) {
  const models = useProjectModels(projectId, organizationId);
  const [client, setClient] = useState<GatewayClient>('curl');
  const [chosen, setChosen] = useState<string>();
  const text = (models.data?.data ?? []).filter((m) => m.capability === 'messages');
  const model = chosen ?? text[0]?.id;
  const origin = window.location.origin;
  const snippet = model
    ? snippetFor(client, { origin, model, smallModel: cheapestTextModel(models.data?.data ?? [], model) })
    : undefined;
  return (
    <section className="panel" aria-label="Connect a client">
      <h2>Connect a client</h2>
      <p>
        Anthropic's API at <code>{origin}</code> (<code>/v1/messages</code>), OpenAI's at <code>{origin}/v1</code> (
        <code>/chat/completions</code>, <code>/responses</code>), with{' '}
        <ProjectKeyLine projectId={projectId} organizationId={organizationId} isAdmin={isAdmin} />
      </p>
      <FormError error={models.error} />
      {models.isPending ? <Loading /> : null}
      {snippet && model ? (
        <>
          <label className="row">
            Model
            <select value={model} onChange={(e) => setChosen(e.target.value)}>
              {text.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id} — {m.displayName}
                </option>
              ))}
            </select>
          </label>
          <Tabs label="Client" tabs={gatewayClients} selected={client} onSelect={setClient}>
            <p>{snippet.intro}</p>
            <div className="snippet">
              <pre data-testid="client-snippet">
                <code>{snippet.text}</code>
              </pre>
              <CopyButton text={snippet.text} label="Copy snippet" />
            </div>
          </Tabs>
        </>
      ) : null}
    </section>
  );
}
