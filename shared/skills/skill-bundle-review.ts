// The whole review of a stored skill bundle, as the skill-bundle worker runs it: inspect the zip, parse SKILL.md,
// derive the manifest; either the values to store or every reason for `changes_requested`.

import { type InspectedBundle, inspectSkillBundle } from './bundle-inspector.js';
import { type BundleLimits, SKILL_BUNDLE_LIMITS } from './bundle-limits.js';
import { type BundleManifest, buildBundleManifest, isManifestSource } from './bundle-manifest.js';
import { parseSkillMd, type SkillFrontMatter } from './skill-md.js';

export type SkillBundleReview =
  | { ok: true; bundle: InspectedBundle; frontMatter: SkillFrontMatter; manifest: BundleManifest }
  | { ok: false; problems: string[] };

export async function reviewSkillBundle(
  zip: Buffer,
  options: { limits?: Partial<BundleLimits> } = {},
): Promise<SkillBundleReview> {
  const inspection = await inspectSkillBundle(zip, { limits: options.limits, captureText: isManifestSource });
  if (!inspection.ok) return inspection;
  const { bundle } = inspection;
  const parsed = parseSkillMd(bundle.skillMd, { folderName: bundle.rootFolder });
  if (!parsed.ok) return parsed;
  const derived = buildBundleManifest(bundle, parsed.frontMatter, parsed.body);
  if (!derived.ok) {
    const max = options.limits?.maxProblems ?? SKILL_BUNDLE_LIMITS.maxProblems;
    return { ok: false, problems: derived.problems.slice(0, max) };
  }
  return { ok: true, bundle, frontMatter: parsed.frontMatter, manifest: derived.manifest };
}
