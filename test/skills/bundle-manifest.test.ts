import { inspectSkillBundle } from '../../shared/skills/bundle-inspector.js';
import { buildBundleManifest, isManifestSource, splitRequirement } from '../../shared/skills/bundle-manifest.js';
import { parseSkillMd } from '../../shared/skills/skill-md.js';
import { buildZip, type ZipContent } from '../support/zip-builders.js';

async function manifestOf(files: ZipContent) {
  const inspection = await inspectSkillBundle(await buildZip(files), { captureText: isManifestSource });
  if (!inspection.ok) throw new Error(inspection.problems.join('\n'));
  const parsed = parseSkillMd(inspection.bundle.skillMd, { folderName: inspection.bundle.rootFolder });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return buildBundleManifest(inspection.bundle, parsed.frontMatter, parsed.body);
}

const SKILL_WITH_EXAMPLES = `---
name: report-writer
description: Writes weekly reports from CSV exports.
parameters:
  - name: format
    description: Output format
    type: string
    default: markdown
  - name: since
    required: true
  - verbose
dependencies: python>=3.10, pandas>=2.0
---

# Report writer

## Examples

### Weekly sales

Turn \`sales.csv\` into a summary.

\`\`\`md
## Not a heading: this is inside a code fence
\`\`\`

### Churn

Explain churn by region.

## Notes

Not an example.
`;

describe('skill bundle manifest', () => {
  it('derives files, parameters, dependencies and examples from the bundle', async () => {
    const result = await manifestOf({
      'report-writer/SKILL.md': SKILL_WITH_EXAMPLES,
      'report-writer/requirements.txt':
        '# tools\npandas>=2.0\nmatplotlib==3.9.0  # charts\n-r other.txt\nrich[jupyter]>=13; python_version>"3.8"\ngit+https://example.com/x.git\n',
      'report-writer/package.json': JSON.stringify({
        dependencies: { 'csv-parse': '^5.5.0' },
        devDependencies: { jest: '*' },
      }),
      'report-writer/examples/weekly.md': 'Input: sales.csv\nOutput: report.md\n',
      'report-writer/examples/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]),
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const { manifest } = result;
    expect(manifest.bundleFiles.map((f) => f.path)).toEqual([
      'SKILL.md',
      'examples/logo.png',
      'examples/weekly.md',
      'package.json',
      'requirements.txt',
    ]);
    expect(manifest.parameters).toEqual([
      { name: 'format', description: 'Output format', type: 'string', required: false, default: 'markdown' },
      { name: 'since', required: true },
      { name: 'verbose', required: false },
    ]);
    expect(manifest.dependencies).toEqual([
      { name: 'python', version: '>=3.10', source: 'frontmatter' },
      { name: 'pandas', version: '>=2.0', source: 'frontmatter' },
      { name: 'pandas', version: '>=2.0', source: 'requirements.txt' },
      { name: 'matplotlib', version: '==3.9.0', source: 'requirements.txt' },
      { name: 'rich', version: '>=13', source: 'requirements.txt' },
      { name: 'csv-parse', version: '^5.5.0', source: 'package.json' },
    ]);
    expect(manifest.examples).toEqual([
      { title: 'logo.png', source: 'examples-folder', path: 'examples/logo.png' },
      {
        title: 'weekly.md',
        source: 'examples-folder',
        path: 'examples/weekly.md',
        content: 'Input: sales.csv\nOutput: report.md\n',
      },
      {
        title: 'Weekly sales',
        source: 'skill-md',
        content: 'Turn `sales.csv` into a summary.\n\n```md\n## Not a heading: this is inside a code fence\n```',
      },
      { title: 'Churn', source: 'skill-md', content: 'Explain churn by region.' },
    ]);
  });

  it('takes parameters as a mapping and dependencies as a list or a mapping', async () => {
    const result = await manifestOf({
      'SKILL.md': `---
name: mapper
description: Maps things.
parameters:
  region: Which region to map
  zoom:
    type: integer
    default: 3
dependencies:
  - "@turf/turf@^7"
  - requests
---
## Example
Map Europe at zoom 4.
`,
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.manifest.parameters).toEqual([
      { name: 'region', description: 'Which region to map', required: false },
      { name: 'zoom', type: 'integer', default: 3, required: false },
    ]);
    expect(result.manifest.dependencies).toEqual([
      { name: '@turf/turf', version: '^7', source: 'frontmatter' },
      { name: 'requests', source: 'frontmatter' },
    ]);
    expect(result.manifest.examples).toEqual([
      { title: 'Example', source: 'skill-md', content: 'Map Europe at zoom 4.' },
    ]);
  });

  it('gives empty lists when the bundle declares nothing', async () => {
    const result = await manifestOf({ 'SKILL.md': '---\nname: plain\ndescription: Plain.\n---\nNothing else.\n' });
    expect(result).toEqual({
      ok: true,
      manifest: { bundleFiles: [{ path: 'SKILL.md', size: 54 }], parameters: [], dependencies: [], examples: [] },
    });
  });

  it('reports every malformed declaration', async () => {
    const result = await manifestOf({
      'SKILL.md': `---
name: broken
description: Broken declarations.
parameters:
  - name: "bad name"
  - 42
  - name: ok
    required: "yes"
dependencies:
  left-pad: 1
---
`,
      'package.json': '{ not json',
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        'Parameter name "bad name" must be a letter or "_" then letters, digits, "_", "." or "-" (at most 64).',
        'Each item of `parameters` must be a name or a mapping with a `name`.',
        'Parameter "ok": `required` must be true or false.',
        'Dependency "left-pad": the version must be a string.',
        'package.json at the skill root is not valid JSON.',
      ],
    });
  });

  it.each([
    ['pandas>=1.5.0', { name: 'pandas', version: '>=1.5.0' }],
    ['numpy == 1.26', { name: 'numpy', version: '== 1.26' }],
    ['@scope/pkg@^2.1', { name: '@scope/pkg', version: '^2.1' }],
    ['requests', { name: 'requests' }],
    ['!!!', null],
  ])('splits the requirement %j', (spec, expected) => {
    expect(splitRequirement(spec)).toEqual(expected);
  });
});
