// Every regular expression of the product's source, found by the TypeScript compiler (its AST, not a text search):
// regex literals, and `new RegExp(...)` / `RegExp(...)` calls, with their source when it is written as a literal.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, SourceFile } from 'typescript/unstable/ast';
import {
  isCallExpression,
  isIdentifier,
  isNewExpression,
  isNoSubstitutionTemplateLiteral,
  isPropertyAccessExpression,
  isRegularExpressionLiteral,
  isStringLiteral,
} from 'typescript/unstable/ast/is';
import { skipTrivia } from 'typescript/unstable/ast/scanner';
import { API } from 'typescript/unstable/sync';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What runs in production, or on a developer's machine serving requests (`npm start`): the API, the workers, what
 * both share, the console, and the scripts (release, migrate, seed, dev, the simulated provider). Not the tests,
 * not the benchmarks (run by hand against local processes), not build configuration.
 */
export const scope = { include: ['api', 'shared', 'workers', 'scripts', 'console/src'], exclude: ['scripts/bench'] };

/**
 * A project of exactly the files in scope, given to the compiler as a file only it sees: every TypeScript and
 * JavaScript file under the folders, whatever the real tsconfigs include, each only parsed (no imports followed, no
 * library read), which is all finding expressions needs.
 */
const sweepProject = path.join(repoRoot, 'regex-sweep.tsconfig.json');
const sweepConfig = JSON.stringify({
  compilerOptions: { noResolve: true, noLib: true, types: [], allowJs: true, jsx: 'preserve', noEmit: true },
  ...scope,
});

export type FoundRegex = {
  /** Relative to the repository, with `/`. */
  file: string;
  line: number;
  /** The expression as written: `/\s+$/g`, or `new RegExp(\`^${x}$\`)`. */
  text: string;
  /** Present when the pattern is a literal (a regex literal, or RegExp over string literals). */
  source?: string;
  flags?: string;
};

/** A literal string argument (`'x'`, `"x"`, `` `x` `` without substitutions): its value. */
function literalText(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  return isStringLiteral(node) || isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function isRegExpCallee(node: Node): boolean {
  return (
    (isIdentifier(node) && node.text === 'RegExp') || (isPropertyAccessExpression(node) && node.name.text === 'RegExp')
  );
}

function regexesOf(sourceFile: SourceFile, file: string): FoundRegex[] {
  const found: FoundRegex[] = [];
  const at = (node: Node) => {
    const start = skipTrivia(sourceFile.text, node.pos);
    return {
      line: sourceFile.getLineAndCharacterOfPosition(start).line + 1,
      text: sourceFile.text.slice(start, node.end),
    };
  };
  const visit = (node: Node): void => {
    if (isRegularExpressionLiteral(node)) {
      const slash = node.text.lastIndexOf('/');
      found.push({ file, ...at(node), source: node.text.slice(1, slash), flags: node.text.slice(slash + 1) });
    } else if ((isNewExpression(node) || isCallExpression(node)) && isRegExpCallee(node.expression)) {
      const [pattern, flags] = node.arguments ?? [];
      const source = literalText(pattern);
      const flagText = flags ? literalText(flags) : '';
      found.push({
        file,
        ...at(node),
        ...(source !== undefined && flagText !== undefined ? { source, flags: flagText } : {}),
      });
    }
    node.forEachChild(visit);
  };
  visit(sourceFile);
  return found;
}

/** Every regex in the files in scope, in file order, and the files read (relative to the repository). */
export function findRegexes(): { regexes: FoundRegex[]; files: string[] } {
  const api = new API({
    cwd: repoRoot,
    fs: {
      readFile: (name) => (name === sweepProject ? sweepConfig : undefined),
      fileExists: (name) => (name === sweepProject ? true : undefined),
    },
  });
  try {
    const [project] = api.updateSnapshot({ openProjects: [sweepProject] }).getProjects();
    const regexes: FoundRegex[] = [];
    const files: string[] = [];
    for (const fileName of project?.program.getSourceFileNames() ?? []) {
      const file = path.relative(repoRoot, fileName).split(path.sep).join('/');
      const sourceFile = project?.program.getSourceFile(fileName);
      if (!sourceFile) continue;
      files.push(file);
      regexes.push(...regexesOf(sourceFile, file));
    }
    return { regexes, files };
  } finally {
    api.close();
  }
}
