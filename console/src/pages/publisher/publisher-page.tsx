// The publisher's home: namespaces (create one) and every own item of the four types with its state.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { publisherBody } from '../../../../shared/catalog/draft-input.js';
import { api } from '../../api/http.js';
import { formatCount, formatCountOf, formatTime } from '../../format.js';
import { cellLabeller } from '../../ui/cell-labels.js';
import { Field } from '../../ui/field.js';
import type { ItemStatsFigures } from '../../ui/item-stats.js';
import { Page } from '../../ui/page.js';
import { Empty, FormError } from '../../ui/status.js';
import { type ItemType, itemTypes, typeNames } from '../hub/hub-api.js';
import { ItemStatus } from './item-status.js';
import { type PublisherNamespace, useMine, usePublishers } from './publisher-api.js';

function Namespaces() {
  const publishers = usePublishers();
  const client = useQueryClient();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: unknown) => api<PublisherNamespace>('/api/v1/publisher/publishers', { method: 'POST', body }),
    onSuccess: () => {
      setSlug('');
      setName('');
      void client.invalidateQueries({ queryKey: ['publishers'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = publisherBody.safeParse({ slug, name });
    setInvalid(
      checked.success ? {} : Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])),
    );
    if (checked.success) create.mutate(checked.data);
  };
  return (
    <section className="panel">
      <h2>Namespaces</h2>
      {publishers.data?.length === 0 ? <Empty>No namespace yet: items are published under one.</Empty> : null}
      <ul className="plain">
        {(publishers.data ?? []).map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> <code>{p.slug}</code>{' '}
            {p.verified ? <span className="badge badge-official">verified</span> : null}
          </li>
        ))}
      </ul>
      <form className="row" onSubmit={submit} aria-label="Create a namespace" noValidate>
        <Field label="Namespace slug" error={invalid.slug}>
          {(p) => <input {...p} value={slug} onChange={(e) => setSlug(e.target.value)} />}
        </Field>
        <Field label="Display name" error={invalid.name}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <button type="submit" disabled={create.isPending}>
          Create namespace
        </button>
      </form>
      <FormError error={create.error} />
    </section>
  );
}

// Not a DataTable (each item type's rows come from their own query), so it takes DataTable's card labels itself.
const myItemsColumns = ['Item', 'Type', 'Status', 'Published', 'Pending', 'Use', 'Updated'];
const labelMyItems = cellLabeller(myItemsColumns);

/** How a published item does, in one cell: installs, uses and its rating (the item's page has every count). */
const usageText = (s: ItemStatsFigures) =>
  [
    formatCountOf(s.installCount, 'install'),
    formatCountOf(s.usageCount, 'use'),
    s.ratingCount ? `★ ${(s.ratingAverage ?? 0).toFixed(1)} (${formatCount(s.ratingCount)})` : 'not rated',
  ].join(' · ');

function ItemsOfType({ type }: { type: ItemType }) {
  const mine = useMine(type);
  const rows = mine.data ?? [];
  return (
    <>
      {rows.map((item) => (
        <tr key={item.id}>
          <td>
            <Link to={`/publisher/${type}/${item.id}`}>{item.name}</Link> <code className="muted">{item.slug}</code>
          </td>
          <td>{typeNames[type]}</td>
          <td>
            <ItemStatus status={item.status} isPublished={item.isPublished} pending={item.pendingVersion} />
          </td>
          <td>{item.currentVersion ?? '—'}</td>
          <td>
            {item.pendingVersion
              ? `${item.pendingVersion.version} (${item.pendingVersion.status.replace(/_/g, ' ')})`
              : '—'}
          </td>
          <td>{item.stats && item.isPublished ? usageText(item.stats) : '—'}</td>
          <td>{formatTime(item.updatedAt)}</td>
        </tr>
      ))}
    </>
  );
}

/** Every own item of the four types; until there is one, what to do first instead of an empty table. */
function MyItems() {
  const namespaces = usePublishers();
  const lists = [useMine('mcp'), useMine('skill'), useMine('agent'), useMine('soul')];
  const none = lists.every((l) => l.data?.length === 0);
  return (
    <section className="panel">
      <h2>My items</h2>
      {none ? (
        <Empty>
          No items yet.{' '}
          {namespaces.data?.length
            ? 'Start a draft with one of the New buttons at the top of this page.'
            : 'Create a namespace above, then start a draft with one of the New buttons at the top of this page.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label="My items" className="data-table" ref={labelMyItems}>
            <thead>
              <tr>
                {myItemsColumns.map((column) => (
                  <th key={column}>{column}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {itemTypes.map((t) => (
                <ItemsOfType key={t} type={t} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function PublisherPage() {
  return (
    <Page
      title="Publisher"
      actions={
        <div className="row">
          {itemTypes.map((t) => (
            <Link key={t} className="button" to={`/publisher/new/${t}`}>
              New {typeNames[t]}
            </Link>
          ))}
        </div>
      }
    >
      <Namespaces />
      <MyItems />
    </Page>
  );
}
