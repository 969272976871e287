// Inflates one zip entry in memory, counting bytes as they come and stopping at the first limit crossed;
// the content is kept only when the caller asks for it, and its text scanned when the caller passes a scan.
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { type BundleLimits, formatBytes } from './bundle-limits.js';
import type { TextEntryScan } from './text-entry-scan.js';
import { shownName } from './zip-entry-rules.js';

export type EntryContent = {
  /** Bytes inflated before the end or the stop. */
  bytes: number;
  content?: Buffer;
  problem?: string;
  /** True when the whole bundle's budget ran out: nothing more should be inflated. */
  budgetExhausted?: boolean;
};

function explainStreamError(name: string, entry: Entry, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/too many bytes/.test(message)) {
    return `The entry ${shownName(name)} declares ${formatBytes(entry.uncompressedSize)} but inflates to more: its sizes are forged.`;
  }
  if (/not enough bytes/.test(message)) {
    return `The entry ${shownName(name)} declares ${formatBytes(entry.uncompressedSize)} but inflates to less: its sizes are forged.`;
  }
  return `The entry ${shownName(name)} could not be inflated (${message}).`;
}

export async function inflateEntry(
  zipfile: ZipFile,
  entry: Entry,
  name: string,
  options: { budgetBytes: number; keep: boolean; limits: BundleLimits; scan?: TextEntryScan },
): Promise<EntryContent> {
  const { budgetBytes, keep, limits, scan } = options;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let checksum = 0;
  try {
    const stream = await zipfile.openReadStreamPromise(entry);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > budgetBytes) {
        return {
          bytes,
          budgetExhausted: true,
          problem: `The bundle inflates to more than ${formatBytes(limits.maxUncompressedBytes)} (stopped in ${shownName(name)}).`,
        };
      }
      if (bytes > limits.ratioCheckMinBytes && bytes > limits.maxCompressionRatio * Math.max(entry.compressedSize, 1)) {
        return {
          bytes,
          problem: `The entry ${shownName(name)} inflates to more than ${limits.maxCompressionRatio} times its compressed size, the signature of a zip bomb.`,
        };
      }
      checksum = crc32(chunk, checksum);
      if (keep) chunks.push(chunk);
      scan?.feed(chunk);
    }
  } catch (error) {
    return { bytes, problem: explainStreamError(name, entry, error) };
  }
  if (checksum !== entry.crc32) {
    return {
      bytes,
      problem: `The entry ${shownName(name)} is corrupt: its CRC-32 checksum does not match its content.`,
    };
  }
  return keep ? { bytes, content: Buffer.concat(chunks, bytes) } : { bytes };
}
