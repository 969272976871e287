// Examples of a skill: files under `examples/` at the skill root, then the `## Examples` section of SKILL.md
// (one example per subheading, or the whole section when it has none).
import type { InspectedBundle } from './bundle-inspector.js';

export type SkillExample = {
  title: string;
  source: 'examples-folder' | 'skill-md';
  /** Path relative to the skill root, for examples that are files. */
  path?: string;
  /** The example's text; absent for files that are binary or too large to read. */
  content?: string;
};

export const MAX_EXAMPLES = 20;
export const MAX_EXAMPLE_CHARS = 8000;
const EXAMPLES_DIR = 'examples/';

const clip = (text: string) => (text.length > MAX_EXAMPLE_CHARS ? `${text.slice(0, MAX_EXAMPLE_CHARS)}\n…` : text);

export function examplesFromFiles(bundle: InspectedBundle): SkillExample[] {
  return bundle.files
    .filter((f) => f.path.startsWith(EXAMPLES_DIR) && f.path.length > EXAMPLES_DIR.length)
    .slice(0, MAX_EXAMPLES)
    .map((f) => {
      const text = bundle.texts[f.path];
      const example: SkillExample = {
        title: f.path.slice(EXAMPLES_DIR.length),
        source: 'examples-folder',
        path: f.path,
      };
      if (text !== undefined) example.content = clip(text);
      return example;
    });
}

type Heading = { line: number; level: number; text: string };

const HEADING_OPENING = /^\s{0,3}(#{1,6})\s+/;
const LINE_TERMINATOR = /[\r\u2028\u2029]/;

/**
 * An ATX heading's level and text (the closing `#`s dropped), or null. Read without a pattern over the whole line:
 * `(.*?)(?:\s+#+)?\s*$` backtracked over a run of whitespace inside the text, quadratic in its length (a review
 * finding: one 100,000-character SKILL.md line took 53 s of a review thread).
 */
function atxHeading(line: string): { level: number; text: string } | null {
  const opening = HEADING_OPENING.exec(line);
  if (!opening) return null;
  let text = line.slice(opening[0].length).trimEnd();
  let hashes = text.length;
  while (hashes > 0 && text[hashes - 1] === '#') hashes--;
  if (hashes > 0 && hashes < text.length && /\s/.test(text[hashes - 1] as string))
    text = text.slice(0, hashes).trimEnd();
  return LINE_TERMINATOR.test(text) ? null : { level: opening[1]!.length, text };
}

/** ATX headings outside fenced code blocks. */
function headingsOf(lines: string[]): Heading[] {
  const headings: Heading[] = [];
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return;
    }
    if (fence !== null) return;
    const heading = atxHeading(line);
    if (heading) headings.push({ line: index, ...heading });
  });
  return headings;
}

export function examplesFromSkillMd(body: string): SkillExample[] {
  const lines = body.split(/\r?\n/);
  const headings = headingsOf(lines);
  const start = headings.findIndex((h) => /^examples?:?$/i.test(h.text.trim()));
  if (start < 0) return [];
  const section = headings[start]!;
  const end = headings.slice(start + 1).find((h) => h.level <= section.level)?.line ?? lines.length;
  const subheadings = headings.filter((h) => h.line > section.line && h.line < end && h.level === section.level + 1);
  const textBetween = (from: number, to: number) =>
    lines
      .slice(from + 1, to)
      .join('\n')
      .trim();

  if (subheadings.length === 0) {
    const content = textBetween(section.line, end);
    return content ? [{ title: section.text, source: 'skill-md', content: clip(content) }] : [];
  }
  return subheadings.slice(0, MAX_EXAMPLES).map((h, i) => ({
    title: h.text,
    source: 'skill-md' as const,
    content: clip(textBetween(h.line, subheadings[i + 1]?.line ?? end)),
  }));
}
