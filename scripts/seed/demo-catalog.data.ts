// The default categories of each item type and a small demo catalog (items of every type, some with two versions),
// so a newcomer sees a living catalog after `npm start`.
import type { ItemType } from '../../shared/catalog/item-types.js';

export const defaultCategories: Record<ItemType, [slug: string, name: string][]> = {
  mcp: [
    ['developer-tools', 'Developer tools'],
    ['data', 'Data and databases'],
    ['search', 'Search and web'],
    ['productivity', 'Productivity'],
  ],
  skill: [
    ['writing', 'Writing'],
    ['documents', 'Documents'],
    ['coding', 'Coding'],
  ],
  agent: [
    ['coding', 'Coding'],
    ['research', 'Research'],
    ['operations', 'Operations'],
  ],
  soul: [
    ['mentors', 'Mentors'],
    ['characters', 'Characters'],
    ['professional', 'Professional'],
  ],
};

export type DemoItem = {
  type: ItemType;
  slug: string;
  publisher: 'ockhub' | 'community';
  name: string;
  summary: string;
  description: string;
  tags: string[];
  categories: string[];
  featured?: boolean;
  counters: { installCount: number; usageCount: number; viewCount: number };
  /**
   * Published in order; each carries the version input of its type. A skill's version carries `bundle`, the files of
   * its .zip (built in memory by the seed, then stored, inspected and reviewed as an upload is), not its contents.
   */
  versions: Record<string, unknown>[];
};

export const demoPublishers = [
  { slug: 'ockhub', name: 'ockhub', verified: true },
  { slug: 'community', name: 'Community demos', verified: false },
] as const;

export const demoItems: DemoItem[] = [
  {
    type: 'mcp',
    slug: 'github',
    publisher: 'ockhub',
    name: 'GitHub',
    summary: 'Issues, pull requests and code search on GitHub.',
    description: 'Read and write issues and pull requests, search code and browse repositories through the GitHub API.',
    tags: ['git', 'code-review'],
    categories: ['developer-tools'],
    featured: true,
    counters: { installCount: 1840, usageCount: 22410, viewCount: 9120 },
    versions: [
      {
        version: '1.0.0',
        changelog: 'First release.',
        license: 'MIT',
        sourceUrl: 'https://github.com/example/github-mcp',
        connections: [{ transport: 'stdio', command: 'npx', args: ['-y', '@example/github-mcp'] }],
        tools: [{ name: 'search_code' }, { name: 'create_issue' }],
        configFields: [{ name: 'GITHUB_TOKEN', type: 'secret', required: true }],
        permissions: ['network'],
      },
      {
        version: '1.1.0',
        changelog: 'Pull request reviews and a hosted endpoint.',
        license: 'MIT',
        readme: '# GitHub MCP\n\nSet `GITHUB_TOKEN`, then ask for issues, pull requests or code.',
        sourceUrl: 'https://github.com/example/github-mcp',
        connections: [
          { transport: 'streamable-http', url: 'https://mcp.example.com/github' },
          { transport: 'stdio', command: 'npx', args: ['-y', '@example/github-mcp'] },
        ],
        tools: [
          { name: 'search_code', description: 'Search code across repositories' },
          { name: 'create_issue', description: 'Open an issue' },
          { name: 'review_pull_request', description: 'Comment on a pull request' },
        ],
        resources: [{ name: 'repository', uri: 'github://{owner}/{repo}' }],
        configFields: [{ name: 'GITHUB_TOKEN', type: 'secret', required: true }],
        permissions: ['network'],
      },
    ],
  },
  {
    type: 'mcp',
    slug: 'postgres',
    publisher: 'community',
    name: 'PostgreSQL',
    summary: 'Read-only SQL against a PostgreSQL database.',
    description: 'Inspect schemas and run read-only queries; every statement runs in a read-only transaction.',
    tags: ['sql', 'database'],
    categories: ['data'],
    counters: { installCount: 960, usageCount: 30120, viewCount: 4400 },
    versions: [
      {
        version: '0.3.0',
        license: 'Apache-2.0',
        connections: [{ transport: 'stdio', command: 'uvx', args: ['postgres-mcp'] }],
        tools: [{ name: 'query' }, { name: 'list_tables' }, { name: 'describe_table' }],
        configFields: [{ name: 'DATABASE_URL', type: 'secret', required: true }],
        permissions: ['network'],
      },
    ],
  },
  {
    type: 'mcp',
    slug: 'web-search',
    publisher: 'ockhub',
    name: 'Web Search',
    summary: 'Search the web and read pages through the ockhub gateway.',
    description: 'Uses the gateway search and fetch routes, billed to your project wallet.',
    tags: ['search', 'web'],
    categories: ['search'],
    counters: { installCount: 410, usageCount: 5200, viewCount: 2100 },
    versions: [
      {
        version: '1.0.0',
        license: 'MIT',
        connections: [{ transport: 'sse', url: 'https://mcp.example.com/search' }],
        tools: [{ name: 'search' }, { name: 'fetch' }],
        prompts: [{ name: 'research-brief', arguments: [{ name: 'topic', required: true }] }],
      },
    ],
  },
  {
    type: 'skill',
    slug: 'release-notes',
    publisher: 'ockhub',
    name: 'Release Notes',
    summary: 'Turns a list of merged changes into release notes.',
    description: 'Groups changes by kind, writes a short summary and links every pull request.',
    tags: ['writing', 'git'],
    categories: ['writing'],
    featured: true,
    counters: { installCount: 320, usageCount: 1400, viewCount: 1800 },
    versions: [
      {
        version: '1.0.0',
        license: 'MIT',
        bundle: {
          'SKILL.md': `---
name: release-notes
description: Groups changes by kind, writes a short summary and links every pull request.
license: MIT
parameters:
  - name: since
    description: Tag or commit to start from
    required: false
---

# Release Notes

Turn the pull requests merged since a tag into release notes.

1. List the merged changes: \`git log --merges --oneline <since>..HEAD\` (the latest tag when \`since\` is not given).
2. Sort each change into Added, Changed, Fixed or Removed, following [the template](reference/template.md).
3. Open with two sentences on what the release means for its users; link every pull request by its number.

## Examples

### Release notes since v2.3.0

"Write the release notes for everything merged since v2.3.0" gives the four sections, each change on one line
with its pull request link.
`,
          'reference/template.md': `# {version} ({date})

{two sentences for the release's users}

## Added
- {change} (#{pull request})

## Changed

## Fixed

## Removed
`,
        },
      },
    ],
  },
  {
    type: 'skill',
    slug: 'pdf-tables',
    publisher: 'community',
    name: 'PDF Tables',
    summary: 'Extracts tables from PDF files into CSV.',
    description: 'Runs a small Python script over each page and writes one CSV per table.',
    tags: ['pdf', 'csv'],
    categories: ['documents'],
    counters: { installCount: 150, usageCount: 600, viewCount: 900 },
    versions: [
      {
        version: '0.2.0',
        license: 'MIT',
        bundle: {
          'SKILL.md': `---
name: pdf-tables
description: Runs a small Python script over each page and writes one CSV per table.
license: MIT
---

# PDF Tables

Extract every table of a PDF into CSV files.

1. Install the dependency once: \`pip install -r requirements.txt\`.
2. Run \`python scripts/extract.py <file.pdf> <output folder>\`: one \`page<N>-table<M>.csv\` per table.
3. Report how many tables each page had, and show the first rows of the largest one.

## Examples

### Extract the tables of report.pdf

"Get the tables out of report.pdf" runs the script into \`report-tables/\` and lists the CSV files it wrote.
`,
          'scripts/extract.py': `"""Writes each table of a PDF as a CSV file: page<N>-table<M>.csv in the output folder."""
import csv
import pathlib
import sys

import pdfplumber


def main(source: str, target: str) -> None:
    out = pathlib.Path(target)
    out.mkdir(parents=True, exist_ok=True)
    with pdfplumber.open(source) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            for index, table in enumerate(page.extract_tables(), start=1):
                with open(out / f"page{number}-table{index}.csv", "w", newline="") as f:
                    csv.writer(f).writerows(table)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
`,
          'requirements.txt': 'pdfplumber>=0.11\n',
        },
      },
    ],
  },
  {
    type: 'agent',
    slug: 'code-reviewer',
    publisher: 'ockhub',
    name: 'Code Reviewer',
    summary: 'Reviews a pull request and leaves focused comments.',
    description: 'Reads the diff and the surrounding code, then comments on bugs, risks and missing tests.',
    tags: ['code-review'],
    categories: ['coding'],
    featured: true,
    counters: { installCount: 700, usageCount: 8100, viewCount: 3600 },
    versions: [
      {
        version: '1.0.0',
        license: 'MIT',
        readme: '# Code Reviewer\n\nPoint it at a pull request.',
        packageUrl: 'https://registry.example.com/code-reviewer-1.0.0.tgz',
        checksum: `sha256:${'3'.repeat(64)}`,
      },
    ],
  },
  {
    type: 'agent',
    slug: 'incident-scribe',
    publisher: 'community',
    name: 'Incident Scribe',
    summary: 'Keeps the timeline of an incident channel.',
    description: 'Summarises an incident channel into a timeline and drafts the post-mortem.',
    tags: ['operations'],
    categories: ['operations'],
    counters: { installCount: 90, usageCount: 450, viewCount: 500 },
    versions: [{ version: '0.1.0', license: 'MIT', sourceUrl: 'https://github.com/example/incident-scribe' }],
  },
  {
    type: 'soul',
    slug: 'stoic-mentor',
    publisher: 'ockhub',
    name: 'Stoic Mentor',
    summary: 'Calm, brief advice in the manner of Epictetus.',
    description: 'A mentor persona that answers with questions first and advice second.',
    tags: ['philosophy'],
    categories: ['mentors'],
    featured: true,
    counters: { installCount: 260, usageCount: 3100, viewCount: 2500 },
    versions: [
      {
        version: '1.0.0',
        license: 'CC-BY-4.0',
        soulMd:
          'You are a Stoic mentor.\n\n- Ask what is within the person’s control.\n- Answer in three sentences or fewer.',
      },
    ],
  },
  {
    type: 'soul',
    slug: 'pirate-captain',
    publisher: 'community',
    name: 'Pirate Captain',
    summary: 'Answers everything as a cheerful pirate captain.',
    description: 'Arr. A playful persona for demos and games; keeps answers short and nautical.',
    tags: ['fun'],
    categories: ['characters'],
    counters: { installCount: 75, usageCount: 900, viewCount: 1300 },
    versions: [{ version: '1.0.0', license: 'MIT' }],
  },
];
