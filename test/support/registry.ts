// Model registries for tests: the shipped entries to copy from, and a registry file of chosen entries.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultRegistryPath } from '../../shared/gateway/model-registry.js';

/** The shipped registry's entries, as written in config/models.json. */
export const shippedModels = (
  JSON.parse(readFileSync(defaultRegistryPath, 'utf8')) as { models: Record<string, unknown>[] }
).models;

/** A shipped entry by id, to copy into a test registry. */
export const shippedModel = (id: string) =>
  shippedModels.find((m) => m.id === id) as Record<string, unknown> & { prices: Record<string, number> };

/** Writes a registry file of `models` in a fresh temporary folder; returns its path (for MODEL_REGISTRY). */
export function writeRegistry(models: Record<string, unknown>[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ockhub-registry-')), 'models.json');
  writeFileSync(file, JSON.stringify({ models }));
  return file;
}
