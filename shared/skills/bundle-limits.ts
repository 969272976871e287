// The limits a skill bundle (.zip) must respect (SPEC section 2), in one place for the upload route,
// the review worker and the documentation.
const KiB = 1024;
const MiB = 1024 * KiB;

export type BundleLimits = {
  /** Size of the .zip itself. */
  maxCompressedBytes: number;
  /** Entries in the zip's central directory, folders included. */
  maxEntries: number;
  /** Sum of every entry's size once inflated, both as declared and as actually counted. */
  maxUncompressedBytes: number;
  /** Inflated size / compressed size of one entry, checked on entries bigger than `ratioCheckMinBytes`. */
  maxCompressionRatio: number;
  ratioCheckMinBytes: number;
  /** Length of an entry name, in characters. */
  maxPathLength: number;
  /** Size of SKILL.md itself. */
  maxSkillMdBytes: number;
  /** Size of any other file whose text is read (manifest sources); larger files are listed but not read. */
  maxCapturedFileBytes: number;
  /** All captured texts together. */
  maxCapturedTotalBytes: number;
  /** How many problems one answer lists before saying how many more there are. */
  maxProblems: number;
};

export const SKILL_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxCompressedBytes: 10 * MiB,
  maxEntries: 500,
  maxUncompressedBytes: 50 * MiB,
  maxCompressionRatio: 100,
  ratioCheckMinBytes: 8 * KiB,
  maxPathLength: 255,
  maxSkillMdBytes: 256 * KiB,
  maxCapturedFileBytes: 64 * KiB,
  maxCapturedTotalBytes: 1 * MiB,
  maxProblems: 50,
});

/** "10 MiB", "8 KiB", "500 bytes": sizes as the refusal messages show them. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  if (bytes >= KiB) return `${(bytes / KiB).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
