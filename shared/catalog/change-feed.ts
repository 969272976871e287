// In-process notice that public catalog data changed (an approval, a rating, curation), so the API's short read
// cache can drop its entries at once. Listeners are keyed by the database handle the write used.
const listeners = new WeakMap<object, Set<() => void>>();

export function onCatalogChange(db: object, listener: () => void): () => void {
  const set = listeners.get(db) ?? new Set<() => void>();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

export function catalogChanged(db: object): void {
  for (const listener of listeners.get(db) ?? []) listener();
}
