// The characters a reader does not see, or that rearrange the text around them, in one place: display names
// (display-name.ts), skill bundle entry names (skills/zip-entry-rules.ts) and SKILL.md's description
// (skills/skill-md.ts) refuse them; messages that quote hostile text escape them (security review #79 and its
// follow-up: docs/identity.md, "Names", and docs/skill-bundles.md).
//
// Each pattern matches ONE character and is tested on one code point at a time, so none can backtrack.

/**
 * Never shown as such: controls (line breaks, tabs, C0 and C1), format characters (\p{Cf}: bidirectional marks,
 * embeddings, overrides and isolates, zero-width spaces, word joiners, invisible operators, the soft hyphen, the byte
 * order mark, interlinear annotation, Unicode tag characters), the line and paragraph separators, private-use and
 * unassigned code points (unassigned in this engine's Unicode version), lone surrogates, and every default-ignorable
 * code point (variation selectors, the combining grapheme joiner, Mongolian free variation selectors, the Hangul
 * fillers, the Khmer inherent vowels, …). ZWJ and ZWNJ are in this set; `firstUnseenCharacter` lets them, the emoji
 * variation selectors and the subdivision flags' tags through where they belong.
 */
const unseenCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

const control = /\p{Cc}/u;

/** Direction-changing characters: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069. */
const bidiControl = /\p{Bidi_Control}/u;

/** Unicode tag characters (U+E0000–U+E007F): invisible ASCII that a language model still reads. */
const tagCharacter = /[\u{E0000}-\u{E007F}]/u;

/** A character a reader sees: a letter, digit, punctuation mark or symbol, except U+2800 (braille blank). */
const seenCharacter = /[\p{L}\p{N}\p{P}\p{S}]/u;
const BRAILLE_BLANK = '\u2800';

/** A letter or mark of a script whose spelling needs ZWJ or ZWNJ (Arabic-script joining, Brahmic conjuncts). */
const joinerScriptLetter = /[\p{L}\p{M}]/u;
const joinerScript =
  /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Myanmar}\p{scx=Khmer}]/u;
const pictograph = /\p{Extended_Pictographic}/u;
const emojiModifier = /\p{Emoji_Modifier}/u;
const emoji = /\p{Emoji}/u;
const keycapBase = /[#*0-9]/;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
const KEYCAP = '\u20e3';
const CANCEL_TAG = '\u{E007F}';
/** The only flags made of tag characters that Unicode recommends for interchange (RGI): England, Scotland, Wales. */
const subdivisionFlags = ['gbeng', 'gbsct', 'gbwls'].map(
  (code) => `\u{1F3F4}${[...code].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}${CANCEL_TAG}`,
);

const inJoiningScript = (c: string | undefined) =>
  c !== undefined && joinerScriptLetter.test(c) && joinerScript.test(c);
/** What may stand before a ZWJ in an emoji sequence: a pictograph, a skin tone, an emoji presentation selector. */
const endsEmoji = (c: string | undefined) =>
  c !== undefined && (pictograph.test(c) || emojiModifier.test(c) || c === '\ufe0f' || c === CANCEL_TAG);

/**
 * Whether the unseen character at `chars[i]` is one a legitimate text needs there:
 * - ZWJ between two emoji (👩‍💻, 🏳️‍🌈), and ZWJ or ZWNJ between two letters or marks of a script that needs them
 *   (Persian می‌خواهم, Devanagari क्‍ष); never at either end, beside a space, or in Latin, Greek, Cyrillic or CJK text,
 *   where it shows nothing (`Bob\u200D` would look like `Bob`);
 * - an emoji presentation selector (U+FE0E, U+FE0F) right after an emoji that is not ASCII (❤️, ☀︎), or after `#`,
 *   `*` or a digit when a keycap (U+20E3) follows (1️⃣): after a letter it shows nothing (`Bob\uFE0F`).
 * Tag characters are let through by `firstUnseenCharacter` only inside a whole subdivision flag.
 */
function neededHere(chars: string[], i: number): boolean {
  const cp = chars[i]!.codePointAt(0);
  const before = chars[i - 1];
  const after = chars[i + 1];
  if (cp === ZWJ && endsEmoji(before) && after !== undefined && pictograph.test(after)) return true;
  if (cp === ZWJ || cp === ZWNJ) return inJoiningScript(before) && inJoiningScript(after);
  if (cp === VS15 || cp === VS16) {
    if (before === undefined) return false;
    if (keycapBase.test(before)) return after === KEYCAP;
    return emoji.test(before);
  }
  return false;
}

/** One character as `U+XXXX`. */
export const codePointName = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character of `text` (by code point) that a reader would not see where it stands, or null. ZWJ, ZWNJ,
 * emoji variation selectors and the tags of the England, Scotland and Wales flags pass where `neededHere` says.
 * `allowControls` leaves \p{Cc} to the caller (zip entry names report control characters with their own sentence).
 */
export function firstUnseenCharacter(text: string, options: { allowControls?: boolean } = {}): string | null {
  const chars = [...text];
  for (const i of outsideFlags(text, chars)) {
    const c = chars[i]!;
    if (!unseenCharacter.test(c)) continue;
    if (options.allowControls && control.test(c)) continue;
    if (neededHere(chars, i)) continue;
    return c;
  }
  return null;
}

/** The indexes of `chars` (the code points of `text`) that are not part of a whole subdivision flag. */
function* outsideFlags(text: string, chars: string[]): Generator<number> {
  let offset = 0; // UTF-16 offset of chars[i]
  for (let i = 0; i < chars.length; i++) {
    const flag = chars[i] === '\u{1F3F4}' ? subdivisionFlags.find((f) => text.startsWith(f, offset)) : undefined;
    if (flag) {
      i += [...flag].length - 1;
      offset += flag.length;
      continue;
    }
    yield i;
    offset += chars[i]!.length;
  }
}

/** True when `text` holds a character a reader sees: a letter, digit, punctuation mark or symbol (not U+2800). */
export const hasSeenCharacter = (text: string) => [...text].some((c) => c !== BRAILLE_BLANK && seenCharacter.test(c));

/** True when `text` starts or ends with a blank that `String.prototype.trim` keeps (U+2800, braille blank). */
export const hasUntrimmedBlankEdge = (text: string) => text.startsWith(BRAILLE_BLANK) || text.endsWith(BRAILLE_BLANK);

/**
 * The first character of `text` that hides text from a reader while a model still reads it, or turns the text
 * around it: a Unicode tag character (outside the England, Scotland and Wales flags) or a bidirectional control.
 * For free text (SKILL.md's description), where line breaks, ZWJ and the like are ordinary.
 */
export function firstHidingCharacter(text: string): string | null {
  const chars = [...text];
  for (const i of outsideFlags(text, chars)) {
    const c = chars[i]!;
    if (tagCharacter.test(c) || bidiControl.test(c)) return c;
  }
  return null;
}

/**
 * In the text of a bundle's files (SKILL.md and every other file read as text, shared/skills/text-entry-scan.ts): a
 * whole England, Scotland or Wales flag (matched to be let through), or one character that hides text or reorders
 * what is shown: a tag character (U+E0000–E007F) or an embedding, override or isolate (U+202A–202E, U+2066–2069,
 * the characters of "Trojan Source", CVE-2021-42574). The marks U+200E, U+200F and U+061C are not in it: right-to-left
 * prose needs them, and they reorder no letter. Used with `lastIndex` over a whole text: an alternation of fixed
 * strings and one class, so a scan is linear in the text.
 */
export const hidingInFileText =
  /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}|[\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu;

/** True for a tag character (U+E0000–E007F). */
export const isTagCharacter = (c: string) => tagCharacter.test(c);

/** `text` with every unseen character written as `\uXXXX` (`\u{XXXXX}` past the BMP), for messages that quote it. */
export function escapeUnseen(text: string): string {
  return [...text]
    .map((c) => {
      if (!unseenCharacter.test(c)) return c;
      const cp = c.codePointAt(0)!;
      return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    })
    .join('');
}
