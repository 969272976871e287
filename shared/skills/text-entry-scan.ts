// Reads one bundle file's bytes as they inflate and finds the first character in its text that hides text from a
// reviewer or shows code in another order than it runs: a Unicode tag character (outside the England, Scotland and
// Wales flags) or a bidirectional embedding, override or isolate (docs/skill-bundles.md, "Hidden text in files").
// Nothing is kept but a few characters between chunks, so a file of any size is scanned in constant memory and
// linear time.
import { hidingInFileText, isTagCharacter } from '../validation/unseen-characters.js';

export type HiddenTextFinding = { line: number; character: string };

/**
 * A whole subdivision flag is 14 UTF-16 units: the last 13 of a chunk's text wait for the next one, so a flag cut by
 * a chunk boundary is read whole and not taken for loose tag characters.
 */
const HOLD_BACK = 13;

/**
 * A file is text unless it has both a NUL byte and a byte sequence that is not UTF-8: a file of valid UTF-8 is read
 * as text whatever it holds (bash runs a script past a NUL byte), and one without NUL bytes is read as UTF-8 the way
 * editors and Node read it, a bad byte shown as U+FFFD (bash runs past that too). Images, archives and other binary
 * files have both, and are left alone.
 */
export class TextEntryScan {
  private readonly strict = new TextDecoder('utf-8', { fatal: true });
  private readonly lenient = new TextDecoder('utf-8');
  private notUtf8 = false;
  private hasNul = false;
  private found: HiddenTextFinding | null = null;
  /** Decoded text not scanned yet (at most HOLD_BACK units, plus the rest of a flag). */
  private held = '';
  /** Line number of the start of `held`. */
  private line = 1;

  private get binary() {
    return this.hasNul && this.notUtf8;
  }

  feed(chunk: Buffer): void {
    if (this.binary) return;
    if (!this.hasNul && chunk.includes(0)) this.hasNul = true;
    if (!this.notUtf8) {
      try {
        this.strict.decode(chunk, { stream: true });
      } catch {
        this.notUtf8 = true;
      }
    }
    if (this.binary || this.found !== null) return;
    this.scan(this.lenient.decode(chunk, { stream: true }), false);
  }

  /** The first finding once the whole file has been fed, or null (none, or a binary file). */
  end(): HiddenTextFinding | null {
    if (!this.notUtf8) {
      try {
        this.strict.decode();
      } catch {
        this.notUtf8 = true;
      }
    }
    if (!this.binary && this.found === null) this.scan(this.lenient.decode(), true);
    return this.binary ? null : this.found;
  }

  private scan(decoded: string, final: boolean): void {
    const text = this.held + decoded;
    const cut = final ? text.length : Math.max(0, text.length - HOLD_BACK);
    let resume = cut;
    hidingInFileText.lastIndex = 0;
    for (let match = hidingInFileText.exec(text); match !== null; match = hidingInFileText.exec(text)) {
      if (match.index >= cut) break;
      const [seen] = match;
      if ([...seen].length > 1) {
        // A whole flag: it may end past `cut`, so the next scan starts after it.
        resume = Math.max(resume, hidingInFileText.lastIndex);
        continue;
      }
      this.line += newlinesIn(text, 0, match.index);
      this.found = { line: this.line, character: seen };
      this.held = '';
      return;
    }
    this.line += newlinesIn(text, 0, resume);
    this.held = text.slice(resume);
  }
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** What a finding means, for the refusal that names it. */
export const findingKind = (character: string) =>
  isTagCharacter(character)
    ? 'an invisible tag character, text an agent reads and a reviewer does not see'
    : 'a bidirectional control, which shows the text around it in another order than it is read or run';
