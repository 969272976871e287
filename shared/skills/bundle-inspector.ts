// Inspects a skill bundle (.zip held in memory) against every rule of SPEC section 2 and reports all the
// problems it finds. Nothing is ever written to disk: entries are inflated into counters (and, for SKILL.md and
// the files the caller asks for, into memory), never extracted.
import type { ZipFile } from 'yauzl';
import { codePointName } from '../validation/unseen-characters.js';
import { locateSkill } from './bundle-layout.js';
import { type BundleLimits, formatBytes, SKILL_BUNDLE_LIMITS } from './bundle-limits.js';
import { openBundleZip } from './bundle-zip.js';
import { findingKind, TextEntryScan } from './text-entry-scan.js';
import { inflateEntry } from './zip-entry-content.js';
import { isPlatformJunk, shownName } from './zip-entry-rules.js';
import { type EntryRecord, readEntryTable } from './zip-entry-table.js';

export type BundleFile = { path: string; size: number };

export type InspectedBundle = {
  /** Size of the .zip. */
  compressedBytes: number;
  /** Bytes actually inflated, every entry included. */
  uncompressedBytes: number;
  fileCount: number;
  /** Regular files, paths relative to the skill root, sorted. */
  files: BundleFile[];
  /** The one top-level folder holding the skill, or null when SKILL.md is at the root of the zip. */
  rootFolder: string | null;
  /** Path of SKILL.md inside the zip. */
  skillMdPath: string;
  skillMd: string;
  /** UTF-8 text of the files `captureText` asked for (paths relative to the skill root); others are left out. */
  texts: Record<string, string>;
};

export type BundleInspection = { ok: true; bundle: InspectedBundle } | { ok: false; problems: string[] };

export type InspectOptions = {
  limits?: Partial<BundleLimits>;
  /** Which files besides SKILL.md to return as text, by path relative to the skill root. */
  captureText?: (relativePath: string) => boolean;
};

/** Files with hidden text the inspection reports before it stops looking (one per file). */
export const MAX_HIDDEN_TEXT_FINDINGS = 5;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(content: Buffer): string | null {
  try {
    return utf8.decode(content).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

function refuse(problems: string[], max: number): BundleInspection {
  if (problems.length <= max) return { ok: false, problems };
  const more = problems.length - max;
  return { ok: false, problems: [...problems.slice(0, max), `... and ${more} more problem${more === 1 ? '' : 's'}.`] };
}

export async function inspectSkillBundle(zip: Buffer, options: InspectOptions = {}): Promise<BundleInspection> {
  const limits: BundleLimits = { ...SKILL_BUNDLE_LIMITS, ...options.limits };
  if (zip.length > limits.maxCompressedBytes) {
    return refuse(
      [`The bundle is ${formatBytes(zip.length)}; the limit is ${formatBytes(limits.maxCompressedBytes)}.`],
      limits.maxProblems,
    );
  }
  let zipfile: ZipFile;
  try {
    zipfile = await openBundleZip(zip);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refuse([`The file is not a valid .zip archive (${reason}).`], limits.maxProblems);
  }
  try {
    return await inspectOpenZip(zipfile, zip.length, limits, options.captureText ?? (() => false));
  } finally {
    zipfile.close();
  }
}

async function inspectOpenZip(
  zipfile: ZipFile,
  compressedBytes: number,
  limits: BundleLimits,
  captureText: (relativePath: string) => boolean,
): Promise<BundleInspection> {
  if (zipfile.entryCount > limits.maxEntries) {
    return refuse(
      [`The bundle has ${zipfile.entryCount} entries; the limit is ${limits.maxEntries} (folders included).`],
      limits.maxProblems,
    );
  }
  const table = await readEntryTable(zipfile, limits);
  const problems = [...table.problems];
  const fileRecords = table.records.filter((r) => r.kind === 'file');
  const layout = locateSkill(fileRecords.map((r) => r.name));
  if (!layout.ok) problems.push(...layout.problems);
  const skillMdPath = layout.ok ? layout.skillMdPath : null;
  const skillMdRecord = fileRecords.find((r) => r.name === skillMdPath);
  if (skillMdRecord && skillMdRecord.entry.uncompressedSize > limits.maxSkillMdBytes) {
    problems.push(
      `SKILL.md is ${formatBytes(skillMdRecord.entry.uncompressedSize)}; the limit is ${formatBytes(limits.maxSkillMdBytes)}.`,
    );
  }
  const relativeOf = (name: string) =>
    layout.ok && layout.rootFolder !== null ? name.slice(layout.rootFolder.length + 1) : name;

  // Inflate what passed its own checks, unless the table itself is untrustworthy or already over the size limit.
  const sizes = new Map<EntryRecord, number>();
  const contents = new Map<string, Buffer>();
  let inflatedBytes = 0;
  let capturedBytes = 0;
  let hiddenTextFindings = 0;
  if (!table.readError && table.declaredBytes <= limits.maxUncompressedBytes) {
    for (const record of table.records) {
      if (!record.readable) continue;
      const isSkillMd = record === skillMdRecord;
      const keep =
        (isSkillMd && record.entry.uncompressedSize <= limits.maxSkillMdBytes) ||
        (!isSkillMd &&
          layout.ok &&
          !isPlatformJunk(record.name) &&
          record.entry.uncompressedSize <= limits.maxCapturedFileBytes &&
          capturedBytes + record.entry.uncompressedSize <= limits.maxCapturedTotalBytes &&
          captureText(relativeOf(record.name)));
      if (keep && !isSkillMd) capturedBytes += record.entry.uncompressedSize;
      // Every file's text, SKILL.md's front matter and body included, as it inflates: an agent reads them once the
      // skill loads, and a person reviewing them sees neither tag characters nor the reordering of an override.
      const scan =
        record.kind === 'file' && !isPlatformJunk(record.name) && hiddenTextFindings < MAX_HIDDEN_TEXT_FINDINGS
          ? new TextEntryScan()
          : undefined;
      const result = await inflateEntry(zipfile, record.entry, record.name, {
        budgetBytes: limits.maxUncompressedBytes - inflatedBytes,
        keep,
        limits,
        scan,
      });
      inflatedBytes += result.bytes;
      sizes.set(record, result.bytes);
      if (result.problem) problems.push(result.problem);
      const hidden = scan && !result.problem ? scan.end() : null;
      if (hidden) {
        hiddenTextFindings++;
        problems.push(
          `The file ${shownName(record.name)} holds ${codePointName(hidden.character)} on line ${hidden.line}: ${findingKind(hidden.character)}.`,
        );
      }
      if (result.content) contents.set(record.name, result.content);
      if (result.budgetExhausted) break;
    }
  }

  const skillMdBytes = skillMdPath ? contents.get(skillMdPath) : undefined;
  const skillMd = skillMdBytes ? decodeText(skillMdBytes) : null;
  if (skillMdBytes && skillMd === null) problems.push('SKILL.md is not valid UTF-8 text.');
  if (problems.length > 0 || !layout.ok || skillMd === null) {
    return refuse(problems.length > 0 ? problems : ['SKILL.md could not be read.'], limits.maxProblems);
  }

  const texts: Record<string, string> = {};
  for (const [name, content] of contents) {
    const text = name === layout.skillMdPath ? null : decodeText(content);
    if (text !== null) texts[relativeOf(name)] = text;
  }
  const files = fileRecords
    .filter((r) => !isPlatformJunk(r.name))
    .map((r) => ({ path: relativeOf(r.name), size: sizes.get(r) ?? r.entry.uncompressedSize }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    ok: true,
    bundle: {
      compressedBytes,
      uncompressedBytes: inflatedBytes,
      fileCount: files.length,
      files,
      rootFolder: layout.rootFolder,
      skillMdPath: layout.skillMdPath,
      skillMd,
      texts,
    },
  };
}
