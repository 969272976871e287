// Where the skill sits in the zip: exactly one SKILL.md, either at the root or in the zip's one top-level folder.
import { isPlatformJunk, shownName } from './zip-entry-rules.js';

export const SKILL_MD = 'SKILL.md';

export type SkillLayout =
  | { ok: true; rootFolder: string | null; skillMdPath: string }
  | { ok: false; problems: string[] };

const listed = (paths: string[], max = 5) =>
  paths.length > max
    ? `${paths.slice(0, max).map(shownName).join(', ')} and ${paths.length - max} more`
    : paths.map(shownName).join(', ');

/** Finds the skill root from the paths of the bundle's regular files. */
export function locateSkill(filePaths: string[]): SkillLayout {
  const paths = filePaths.filter((p) => !isPlatformJunk(p));
  const depthOf = (p: string) => p.split('/').length;
  const candidates = paths.filter((p) => p.split('/').pop() === SKILL_MD && depthOf(p) <= 2);

  if (candidates.length === 0) {
    const lookalike = paths.find((p) => p.split('/').pop()?.toLowerCase() === 'skill.md' && depthOf(p) <= 2);
    if (lookalike) {
      return fail(
        `The bundle has no SKILL.md: found ${shownName(lookalike)}, but the file must be named SKILL.md exactly.`,
      );
    }
    const deeper = paths.filter((p) => p.split('/').pop() === SKILL_MD);
    if (deeper.length > 0) {
      return fail(
        `The bundle has no SKILL.md at its root or in its top-level folder (found ${listed(deeper)} deeper down); ` +
          'zip the skill folder itself.',
      );
    }
    return fail('The bundle has no SKILL.md; put SKILL.md at the root of the zip or in its single top-level folder.');
  }
  if (candidates.length > 1) {
    return fail(
      `The bundle has ${candidates.length} SKILL.md files (${listed(candidates)}); ` +
        'it must have exactly one, at the root of the zip or in its single top-level folder.',
    );
  }

  const skillMdPath = candidates[0]!;
  if (skillMdPath === SKILL_MD) return { ok: true, rootFolder: null, skillMdPath };
  const rootFolder = skillMdPath.slice(0, -SKILL_MD.length - 1);
  const outside = paths.filter((p) => !p.startsWith(`${rootFolder}/`));
  if (outside.length > 0) {
    return fail(
      `SKILL.md is in the folder ${shownName(`${rootFolder}/`)}, so every file must be inside that folder; ` +
        `found outside it: ${listed(outside)}.`,
    );
  }
  return { ok: true, rootFolder, skillMdPath };
}

const fail = (problem: string): SkillLayout => ({ ok: false, problems: [problem] });
