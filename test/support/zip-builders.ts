// Builds zips inside the tests: honest ones with yazl, hostile ones byte by byte where a zip writer refuses
// (parent paths, symlink attributes, encryption flags, forged sizes).
import { crc32, deflateRawSync } from 'node:zlib';
import yazl from 'yazl';

export type ZipContent = Record<string, string | Buffer>;

/** A well-formed zip made by yazl; names ending in "/" become folders. */
export async function buildZip(files: ZipContent, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(content), name, { compress: options.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export type CraftedEntry = {
  name: string;
  content?: Buffer | string;
  /** 0 = stored, 8 = deflate (default). */
  method?: number;
  /** Uncompressed size written in both headers instead of the real one. */
  declaredSize?: number;
  /** CRC-32 written instead of the real one. */
  crc?: number;
  /** General purpose bit flags (0x1 = encrypted); UTF-8 names (0x800) are always flagged. */
  flags?: number;
  /** Unix mode stored in the upper external attributes, e.g. 0o120777 for a symlink. */
  unixMode?: number;
  /** Local header offset written in the central directory instead of the real one. */
  offset?: number;
};

const DOS_DATE_1980_01_01 = 0x21;

/** Writes a zip by hand: local headers and data, central directory, end record. */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const content = Buffer.from(e.content ?? '');
    const method = e.method ?? 8;
    const data = method === 8 ? deflateRawSync(content) : content;
    const crc = e.crc ?? crc32(content);
    const size = e.declaredSize ?? content.length;
    const flags = (e.flags ?? 0) | 0x800;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode === undefined ? 20 : (3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE_1980_01_01, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(e.offset ?? offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export const skillMd = (name = 'pdf-tools', description = 'Extracts text and tables from PDF files.', extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nUse this skill to work with PDFs.\n`;
