// Reads a zip's central directory (names, kinds, declared sizes) and checks every entry against the bundle
// rules, without inflating anything.
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { type BundleLimits, formatBytes } from './bundle-limits.js';
import { type EntryKind, entryKind, entryNameProblems, shownName } from './zip-entry-rules.js';

export type EntryRecord = {
  entry: Entry;
  name: string;
  kind: EntryKind;
  /** True when the entry is a regular file that broke no rule, so its content may be inflated. */
  readable: boolean;
};

export type EntryTable = { records: EntryRecord[]; declaredBytes: number; readError: boolean; problems: string[] };

const LOCAL_HEADER_MIN_BYTES = 30;
const GENERAL_PURPOSE_UTF8 = 0x800;

/** Reads every central-directory entry; stops at the first structural error yauzl reports. */
function readEntries(zipfile: ZipFile): Promise<{ entries: Entry[]; error?: Error }> {
  return new Promise((resolve) => {
    const entries: Entry[] = [];
    zipfile.on('entry', (entry: Entry) => {
      entries.push(entry);
      zipfile.readEntry();
    });
    zipfile.once('end', () => resolve({ entries }));
    zipfile.once('error', (error: Error) => resolve({ entries, error }));
    zipfile.readEntry();
  });
}

function explainTableError(error: Error): string {
  if (/strong encryption/i.test(error.message)) {
    return 'The bundle uses strong encryption; encrypted entries are not allowed.';
  }
  if (/size mismatch for stored file/i.test(error.message)) {
    return 'An entry stored without compression declares different compressed and uncompressed sizes (forged sizes).';
  }
  return `The zip's table of entries is damaged (${error.message}).`;
}

/** The entry's name as an extractor would use it, and the raw name field when it says something else. */
function namesOf(entry: Entry): string[] {
  const flags = entry.generalPurposeBitFlag;
  const raw = entry.fileNameRaw;
  const resolved = yauzl.getFileNameLowLevel(flags, raw, entry.extraFields, true);
  const plain =
    (flags & GENERAL_PURPOSE_UTF8) !== 0 ? raw.toString('utf8') : yauzl.getFileNameLowLevel(0, raw, [], true);
  return resolved === plain ? [resolved] : [resolved, plain];
}

function entryProblems(entry: Entry, names: string[], kind: EntryKind, limits: BundleLimits): string[] {
  const shown = shownName(names[0]!);
  const problems = names.flatMap((n) => entryNameProblems(n, limits.maxPathLength));
  if (kind === 'symlink') problems.push(`The entry ${shown} is a symbolic link; links are not allowed.`);
  if (kind === 'special') {
    problems.push(`The entry ${shown} is a device, FIFO or socket; only regular files and folders are allowed.`);
  }
  if (entry.isEncrypted()) problems.push(`The entry ${shown} is encrypted; encrypted entries are not allowed.`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    problems.push(
      `The entry ${shown} uses compression method ${entry.compressionMethod}; only stored (0) and deflate (8) are supported.`,
    );
  }
  const { uncompressedSize: size, compressedSize } = entry;
  if (size > limits.ratioCheckMinBytes && size > limits.maxCompressionRatio * Math.max(compressedSize, 1)) {
    problems.push(
      `The entry ${shown} would inflate from ${formatBytes(compressedSize)} to ${formatBytes(size)} ` +
        `(more than ${limits.maxCompressionRatio}:1), the signature of a zip bomb.`,
    );
  }
  return problems;
}

/** Entries whose stored data would overlap another's: a trick of non-recursive zip bombs. */
function overlapProblems(entries: Entry[]): string[] {
  const sorted = [...entries].sort((a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const after = sorted[i]!;
    const earliestEnd = before.relativeOffsetOfLocalHeader + LOCAL_HEADER_MIN_BYTES + before.compressedSize;
    if (earliestEnd > after.relativeOffsetOfLocalHeader) {
      return ['Entries of the bundle overlap one another inside the zip, a pattern used by zip bombs.'];
    }
  }
  return [];
}

/**
 * Paths (and the folders they imply) equal but for letter case: on a case-insensitive file system (macOS, Windows)
 * one would overwrite or merge into the other when the bundle is unpacked, so the bundle is refused at review.
 * Names are compared after Unicode NFC normalisation (macOS writes NFD) and lower-casing.
 */
class CaseCollisions {
  private readonly firstSpelling = new Map<string, string>();
  private readonly reported = new Set<string>();

  /** The problems `name` adds: one per path or folder it spells differently from an earlier entry. */
  check(name: string): string[] {
    const segments = name.replace(/\/$/, '').split('/');
    const problems: string[] = [];
    for (let i = 1; i <= segments.length; i++) {
      const path = segments.slice(0, i).join('/');
      const shown = i < segments.length ? `${path}/` : name;
      const folded = path.normalize('NFC').toLowerCase();
      const earlier = this.firstSpelling.get(folded);
      if (earlier === undefined) {
        this.firstSpelling.set(folded, shown);
      } else if (earlier.replace(/\/$/, '') !== path && !this.reported.has(folded)) {
        this.reported.add(folded);
        problems.push(
          `The entries ${shownName(earlier)} and ${shownName(shown)} differ only by letter case; ` +
            'unpacked on a case-insensitive file system (macOS, Windows) one would overwrite the other.',
        );
      }
    }
    return problems;
  }
}

export async function readEntryTable(zipfile: ZipFile, limits: BundleLimits): Promise<EntryTable> {
  const { entries, error } = await readEntries(zipfile);
  const problems: string[] = error ? [explainTableError(error)] : [];
  const records: EntryRecord[] = [];
  const seen = new Set<string>();
  const caseCollisions = new CaseCollisions();
  let declaredBytes = 0;
  for (const entry of entries) {
    const names = namesOf(entry);
    const name = names[0]!;
    const kind = entryKind(entry, name);
    const own = entryProblems(entry, names, kind, limits);
    // A name past the length limit is already refused: it goes into no Set or Map, and its folders are not walked.
    // 500 names of 16,390 characters (all but their ends shared) cost the API 0.5 s in `seen` alone (V8 hashes a
    // string past 16,383 characters by its length, so they collide), and the case check rebuilt every folder of a
    // name of 8,000 segments, 264 s for 500 (security review #130).
    if (name.length <= limits.maxPathLength) {
      if (seen.has(name)) own.push(`The entry ${shownName(name)} appears more than once.`);
      else own.push(...caseCollisions.check(name));
      seen.add(name);
    }
    problems.push(...own);
    declaredBytes += entry.uncompressedSize;
    records.push({ entry, name, kind, readable: kind === 'file' && own.length === 0 });
  }
  if (declaredBytes > limits.maxUncompressedBytes) {
    problems.push(
      `The bundle declares ${formatBytes(declaredBytes)} of uncompressed content; ` +
        `the limit is ${formatBytes(limits.maxUncompressedBytes)}.`,
    );
  }
  problems.push(...overlapProblems(entries));
  return { records, declaredBytes, readError: error !== undefined, problems };
}
