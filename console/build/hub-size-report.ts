// Prints the initial JavaScript of the public hub (the entry chunk and every chunk it imports statically, i.e.
// what a first visit to a hub page downloads before it renders) gzipped, and fails the build over the limit.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

type Chunk = { type: 'chunk'; fileName: string; code: string; isEntry: boolean; imports: string[] };

export function hubSizeReport(options: { limitBytes: number }): Plugin {
  return {
    name: 'ockhub-hub-size-report',
    apply: 'build',
    generateBundle(_output, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const [name, file] of Object.entries(bundle)) if (file.type === 'chunk') chunks.set(name, file as Chunk);
      const entry = [...chunks.values()].find((c) => c.isEntry);
      if (!entry) return;
      const initial = new Set<string>();
      const visit = (name: string) => {
        if (initial.has(name)) return;
        initial.add(name);
        for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
      };
      visit(entry.fileName);
      let raw = 0;
      let gzipped = 0;
      for (const name of initial) {
        const code = chunks.get(name)?.code ?? '';
        raw += Buffer.byteLength(code);
        gzipped += gzipSync(code, { level: 9 }).length;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const line = `initial JS of the public hub: ${kb(gzipped)} gzipped (${kb(raw)} raw, ${initial.size} chunk(s); limit ${kb(options.limitBytes)})`;
      process.stdout.write(`[console] ${line}\n`);
      if (gzipped > options.limitBytes) this.error(`The ${line}: over the limit.`);
    },
  };
}
