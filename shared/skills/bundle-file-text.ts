// One file of a stored skill bundle as text, for the people who review it (docs/skill-bundles.md, "Reading a
// bundle's files"): the entry is found through the same table and layout checks the inspection runs and inflated in
// memory, at most MAX_SHOWN_FILE_BYTES of it; nothing is written to disk. Only files the inspection accepts are
// read: regular files breaking no entry rule, inside the skill root, not macOS `__MACOSX/` entries.
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { locateSkill } from './bundle-layout.js';
import { SKILL_BUNDLE_LIMITS } from './bundle-limits.js';
import { openBundleZip } from './bundle-zip.js';
import { isPlatformJunk } from './zip-entry-rules.js';
import { readEntryTable } from './zip-entry-table.js';

/** What is shown of one file; SKILL.md (at most 256 KiB) is always shown whole. */
export const MAX_SHOWN_FILE_BYTES = 256 * 1024;

export type BundleFileText =
  | { path: string; size: number; binary: false; text: string; truncated: boolean }
  | { path: string; size: number; binary: true; truncated: false };

/** The file at `path` (relative to the skill root, as `bundleFiles` names it), or null when the bundle has no such
 * accepted file. */
export async function readBundleFileText(zip: Buffer, path: string): Promise<BundleFileText | null> {
  let zipfile: ZipFile;
  try {
    zipfile = await openBundleZip(zip);
  } catch {
    return null;
  }
  try {
    const entry = await acceptedEntry(zipfile, path);
    return entry ? await shownText(zipfile, entry, path) : null;
  } finally {
    zipfile.close();
  }
}

async function acceptedEntry(zipfile: ZipFile, path: string): Promise<Entry | null> {
  if (zipfile.entryCount > SKILL_BUNDLE_LIMITS.maxEntries) return null;
  const table = await readEntryTable(zipfile, SKILL_BUNDLE_LIMITS);
  if (table.readError) return null;
  const files = table.records.filter((r) => r.kind === 'file');
  const layout = locateSkill(files.map((r) => r.name));
  if (!layout.ok) return null;
  const name = layout.rootFolder === null ? path : `${layout.rootFolder}/${path}`;
  const record = files.find((r) => r.name === name);
  return record?.readable && !isPlatformJunk(record.name) ? record.entry : null;
}

/** Inflates up to the cap (the rest is never inflated) and decodes it; a file is binary on the rule the inspection's
 * hidden-text scan uses (text-entry-scan.ts): a NUL byte and a byte sequence that is not UTF-8, both. */
async function shownText(zipfile: ZipFile, entry: Entry, path: string): Promise<BundleFileText> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let checksum = 0;
  const stream = await zipfile.openReadStreamPromise(entry);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const kept = chunk.subarray(0, MAX_SHOWN_FILE_BYTES - bytes);
    chunks.push(kept);
    bytes += kept.length;
    checksum = crc32(chunk, checksum);
    if (bytes >= MAX_SHOWN_FILE_BYTES) break;
  }
  stream.destroy();
  const size = entry.uncompressedSize;
  const truncated = size > bytes;
  // A whole file is checked as the inspection checked it; a cut one was checked whole when it was uploaded.
  if (!truncated && checksum !== entry.crc32) throw new Error(`The bundle's entry ${path} fails its CRC-32 check.`);
  const shown = Buffer.concat(chunks, bytes);
  if (isBinary(shown, truncated)) return { path, size, binary: true, truncated: false };
  // `stream: true` for a cut file holds back a character the cut split, rather than showing U+FFFD for it.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(shown, { stream: truncated });
  return { path, size, binary: false, text, truncated };
}

function isBinary(shown: Buffer, truncated: boolean): boolean {
  if (!shown.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(shown, { stream: truncated });
    return false;
  } catch {
    return true;
  }
}
