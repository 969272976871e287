// The cheap look at a page before the DOM is built: one streaming pass of htmlparser2 (the parser linkedom builds
// its DOM with, with the same options, so the depth seen here is the DOM's) counting elements, attributes and the
// deepest nesting, stopped at the first limit passed. Its cost is linear in the page's size: the parser's open-tag
// stack never grows past the depth limit, so its per-tag work is bounded.
import { Parser } from 'htmlparser2';

export type ComplexityLimits = { maxElements: number; maxDepth: number; maxAttributes: number };

/** Why a page is refused, said for the API user; null when it is within every limit. */
export type ComplexityVerdict = string | null;

class LimitPassed extends Error {}

export function pageComplexity(html: string, limits: ComplexityLimits): ComplexityVerdict {
  let elements = 0;
  let attributes = 0;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag() {
        elements++;
        depth++;
        if (depth > limits.maxDepth) throw new LimitPassed(`more than ${limits.maxDepth} levels of nested elements`);
        if (elements > limits.maxElements) throw new LimitPassed(`more than ${limits.maxElements} elements`);
      },
      onattribute() {
        attributes++;
        if (attributes > limits.maxAttributes) throw new LimitPassed(`more than ${limits.maxAttributes} attributes`);
      },
      onclosetag() {
        depth--;
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true, xmlMode: false },
  );
  try {
    parser.write(html);
    parser.end();
    return null;
  } catch (err) {
    if (err instanceof LimitPassed) return err.message;
    throw err;
  }
}
