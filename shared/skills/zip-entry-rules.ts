// What a single zip entry may be: its name (no absolute paths, no "..", no backslashes, no control characters, no
// invisible or direction-changing characters) and its kind (regular files and folders only: no symlinks, devices, FIFOs or sockets).
import type { Entry } from 'yauzl';
import { codePointName, escapeUnseen, firstUnseenCharacter } from '../validation/unseen-characters.js';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MSDOS_DIRECTORY = 0x10;

/** A name as messages show it: quoted, control and other unseen characters escaped, long names shortened. */
export function shownName(name: string): string {
  const short = name.length > 120 ? `${name.slice(0, 117)}...` : name;
  return escapeUnseen(JSON.stringify(short));
}

/** Every rule `name` breaks, each as a sentence; empty when the name is safe to extract anywhere. */
export function entryNameProblems(name: string, maxPathLength: number): string[] {
  const shown = shownName(name);
  const problems: string[] = [];
  if (name.length === 0) return ['The bundle has an entry with an empty name.'];
  if (/\p{Cc}/u.test(name)) problems.push(`The entry ${shown} has control characters in its name.`);
  // A right-to-left override shows `notes\u202Edm.sh` as `noteshs.md`; a zero-width space makes `read\u200Bme.md`
  // look like `readme.md`. The same characters as display names refuse (shared/validation/unseen-characters.ts);
  // a name past the length limit is refused for that alone, without walking it.
  const unseen = name.length > maxPathLength ? null : firstUnseenCharacter(name, { allowControls: true });
  if (unseen !== null) {
    problems.push(
      `The entry ${shown} has an invisible or direction-changing character (${codePointName(unseen)}) in its name.`,
    );
  }
  if (name.includes('\\')) {
    problems.push(`The entry ${shown} has a backslash in its name; zip paths must use "/" as the separator.`);
  }
  if (name.startsWith('/')) problems.push(`The entry ${shown} has an absolute path; paths must be relative.`);
  if (/^[A-Za-z]:/.test(name)) problems.push(`The entry ${shown} starts with a drive letter; paths must be relative.`);
  const segments = name.replace(/\/$/, '').split(/[/\\]/);
  if (segments.includes('..')) {
    problems.push(`The entry ${shown} has a ".." segment that points outside the bundle.`);
  }
  if (!name.startsWith('/') && segments.some((s) => s === '' || s === '.')) {
    problems.push(`The entry ${shown} has an empty or "." path segment.`);
  }
  if (name.length > maxPathLength) {
    problems.push(`The entry ${shown} has a name longer than ${maxPathLength} characters.`);
  }
  return problems;
}

/** What the entry is, from its Unix mode (upper 16 bits of the external attributes) and its name. */
export function entryKind(entry: Entry, name: string): EntryKind {
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (mode === S_IFLNK) return 'symlink';
  if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR) return 'special';
  if (mode === S_IFDIR || name.endsWith('/') || (entry.externalFileAttributes & MSDOS_DIRECTORY) !== 0) {
    return 'directory';
  }
  return 'file';
}

/** Folders macOS adds to zips it makes; they are checked like any entry but ignored for the layout and file list. */
export const isPlatformJunk = (name: string) => name.startsWith('__MACOSX/') || name === '__MACOSX';
