// The fields of a draft: its metadata, and its version with the fields of its type (an MCP server's connections,
// tools, resources, prompts and settings (rows of fields, entry-rows.tsx) and permissions; an agent's or soul's package;
// a soul's SOUL.md).
import type { ReactNode } from 'react';
import { Field } from '../../ui/field.js';
import { type ItemType, useCategories } from '../hub/hub-api.js';
import { type Connection, type DraftState, emptyConnection, type FieldErrors } from './draft-state.js';
import { EntryRows } from './entry-rows.js';
import { entryKinds } from './mcp-entries.js';

type Props = {
  type: ItemType;
  state: DraftState;
  errors: FieldErrors;
  onChange: (change: Partial<DraftState>) => void;
};

function Text(props: Props & { field: keyof DraftState; label: string; hint?: string; area?: number }) {
  const value = props.state[props.field] as string;
  const set = (v: string) => props.onChange({ [props.field]: v } as Partial<DraftState>);
  return (
    <Field label={props.label} error={props.errors[props.field]} {...(props.hint ? { hint: props.hint } : {})}>
      {(p) =>
        props.area ? (
          <textarea {...p} rows={props.area} value={value} onChange={(e) => set(e.target.value)} />
        ) : (
          <input {...p} value={value} onChange={(e) => set(e.target.value)} />
        )
      }
    </Field>
  );
}

function Categories(props: Props) {
  const categories = useCategories(props.type);
  const all = categories.data ?? [];
  if (all.length === 0) return null;
  const toggle = (slug: string, on: boolean) =>
    props.onChange({
      categories: on ? [...props.state.categories, slug] : props.state.categories.filter((c) => c !== slug),
    });
  return (
    <fieldset>
      <legend>Categories</legend>
      {all.map((c) => (
        <label key={c.slug} className="row">
          <input
            type="checkbox"
            checked={props.state.categories.includes(c.slug)}
            onChange={(e) => toggle(c.slug, e.target.checked)}
          />
          {c.name}
        </label>
      ))}
      {props.errors.categories ? <small className="field-error">{props.errors.categories}</small> : null}
    </fieldset>
  );
}

export function MetadataFields(props: Props & { namespaces?: ReactNode }) {
  return (
    <fieldset className="stack">
      <legend>About the item</legend>
      {props.namespaces}
      <Text {...props} field="name" label="Name" />
      <Text {...props} field="summary" label="Summary" hint="One line, up to 200 characters." />
      <Text {...props} field="description" label="Description" area={5} />
      <Text {...props} field="iconUrl" label="Icon URL (optional)" />
      <Text {...props} field="tags" label="Tags" hint="Comma-separated slugs, e.g. pdf, documents (up to 10)." />
      <Categories {...props} />
    </fieldset>
  );
}

function ConnectionRows(props: Props) {
  const rows = props.state.connections;
  const set = (i: number, change: Partial<Connection>) =>
    props.onChange({ connections: rows.map((r, n) => (n === i ? { ...r, ...change } : r)) });
  return (
    <fieldset className="stack">
      <legend>Connections</legend>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
        <div key={i} className="row">
          <Field label={`Transport ${i + 1}`}>
            {(p) => (
              <select {...p} value={row.transport} onChange={(e) => set(i, { transport: e.target.value })}>
                <option value="stdio">stdio</option>
                <option value="streamable-http">streamable-http</option>
                <option value="sse">sse</option>
              </select>
            )}
          </Field>
          {row.transport === 'stdio' ? (
            <>
              <Field label={`Command ${i + 1}`}>
                {(p) => <input {...p} value={row.command} onChange={(e) => set(i, { command: e.target.value })} />}
              </Field>
              <Field label={`Arguments ${i + 1}`}>
                {(p) => <input {...p} value={row.args} onChange={(e) => set(i, { args: e.target.value })} />}
              </Field>
            </>
          ) : (
            <Field label={`URL ${i + 1}`}>
              {(p) => <input {...p} value={row.url} onChange={(e) => set(i, { url: e.target.value })} />}
            </Field>
          )}
          <button type="button" onClick={() => props.onChange({ connections: rows.filter((_, n) => n !== i) })}>
            Remove
          </button>
        </div>
      ))}
      {props.errors.connections ? <small className="field-error">{props.errors.connections}</small> : null}
      <div>
        <button type="button" onClick={() => props.onChange({ connections: [...rows, emptyConnection()] })}>
          Add a connection
        </button>
      </div>
    </fieldset>
  );
}

function McpFields(props: Props) {
  return (
    <>
      <ConnectionRows {...props} />
      {entryKinds.map((kind) => (
        <EntryRows
          key={kind.list}
          kind={kind}
          rows={props.state[kind.list]}
          errors={props.errors}
          onChange={(rows) => props.onChange({ [kind.list]: rows })}
        />
      ))}
      <Text {...props} field="permissions" label="Permissions" hint="Comma-separated, e.g. network, filesystem:read" />
    </>
  );
}

export function VersionFields(props: Props) {
  return (
    <fieldset className="stack">
      <legend>Version</legend>
      <Text {...props} field="version" label="Version" hint="Semantic version, e.g. 1.0.0" />
      <Text {...props} field="changelog" label="Changelog (optional)" area={2} />
      <Text {...props} field="license" label="License (optional)" />
      <Text {...props} field="sourceUrl" label="Source URL (optional)" />
      <Text {...props} field="readme" label="Readme (optional)" area={4} />
      {props.type === 'mcp' ? <McpFields {...props} /> : null}
      {props.type === 'agent' || props.type === 'soul' ? (
        <>
          <Text {...props} field="packageUrl" label="Package URL (optional)" />
          <Text {...props} field="checksum" label="Checksum (optional)" hint="sha256:<64 hex> or an SRI sha512 value" />
        </>
      ) : null}
      {props.type === 'soul' ? <Text {...props} field="soulMd" label="SOUL.md" area={8} /> : null}
      {props.type === 'skill' ? (
        <p className="muted">A skill's contents come from its bundle: upload the .zip once the draft exists.</p>
      ) : null}
    </fieldset>
  );
}
