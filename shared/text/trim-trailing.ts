/**
 * `text` without its trailing run of characters that `oneChar` matches: what `text.replace(/[set]+$/, '')` does, in
 * linear time. The pattern form retries from every character of a run that something other than the end follows, so
 * it is quadratic in the text (security review #93). `oneChar` matches a single character and has no `g` or `y` flag.
 */
export function trimTrailing(text: string, oneChar: RegExp): string {
  let end = text.length;
  while (end > 0 && oneChar.test(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}
