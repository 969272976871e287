// Summarizes a V8 CPU profile (`node --cpu-prof`): self time by function and by where the code lives (this repo's
// files, each dependency, Node's internals), to see where a benchmark's time goes; and the busy time charged to the
// innermost function of this repository on each sample's stack (what each of ours costs with the library and Node
// work it asks for), leaving out idle time and the start-up's module loading.
// Usage: npx tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives: a package name, a file of this repository, `node:` internals, or (program/gc/idle). */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const repo = /\/(api|shared|workers|scripts)\/(.+)$/.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

export function summarize(profile: Profile, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = (byId.get(id) as Node).callFrame;
    const place = placeOf(url, functionName);
    const key = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
  return {
    totalMs: total / 1000,
    byPlace: rows(byPlace),
    byFunction: rows(byFunction),
    nearestOwn: nearestOwn(profile, byId, top),
  };
}

const isRepositoryPlace = (place: string) => /^(api|shared|workers)\//.test(place);

/**
 * Each busy sample charged to the innermost function of this repository on its stack (a library's or Node's work
 * counts for the code of ours that asked for it; a middleware's `next()` chain is charged to the later middleware).
 */
function nearestOwn(profile: Profile, byId: Map<number, Node>, top: number): string[] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    let owner: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = (byId.get(at) as Node).callFrame;
      const place = placeOf(url, functionName);
      // idle time and the start-up's module loading are not the benchmark's
      if (place === '(idle)' || place === 'tsx' || functionName === 'compileSourceTextModule') return;
      if (owner === undefined && isRepositoryPlace(place))
        owner = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`;
    }
    busy += us;
    const key = owner ?? '(no function of this repository on the stack)';
    charged.set(key, (charged.get(key) ?? 0) + us);
  });
  return [...charged]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `${((100 * us) / busy).toFixed(1).padStart(5)} %  ${k}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2);
  const s = summarize(JSON.parse(readFileSync(String(file), 'utf8')) as Profile, Number(top ?? 25));
  console.log(`${s.totalMs.toFixed(0)} ms sampled\n\nby place (self time)\n${s.byPlace.join('\n')}`);
  console.log(`\nby function (self time)\n${s.byFunction.join('\n')}`);
  console.log(`\nbusy time by the innermost function of this repository on the stack\n${s.nearestOwn.join('\n')}`);
}
