// The cost of the JSON body guard (api/http/json-body.ts: the pre-parse shape scan of depth, objects and arrays and
// values, the charset check and the surrogate hint) on the hot path: per body, the scan next to JSON.parse for
// typical gateway bodies; over HTTP, a bare Express app parsing /v1/messages-sized bodies with express.json() versus
// the same app with jsonBody(); and what object keys cost JSON.parse (security review #126), cold: every repetition
// uses names V8 has not met, after a collection when the process runs with --expose-gc.
// Usage: npx tsx scripts/bench/json-body.ts [seconds per HTTP side]
// (for the keys' figures as in docs/architecture.md: node --expose-gc --import tsx scripts/bench/json-body.ts)
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { Agent, request } from 'undici';
import { jsonBody } from '../../api/http/json-body.js';
import { jsonExcess } from '../../shared/validation/json-shape.js';
import { benchArgs } from './bench-args.js';
import { reportHeadline } from './headline.js';

const [seconds] = benchArgs(import.meta.url, [['seconds', 3, 'duration']]);

function messagesBody(textBytes: number, imageBytes = 0): Buffer {
  const content: unknown[] = [{ type: 'text', text: 'Summarise the attached notes. '.repeat(textBytes / 30) }];
  if (imageBytes > 0) {
    content.push({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(imageBytes / 11) },
    });
  }
  return Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-5',
      max_tokens: 1024,
      system: 'You are a careful assistant.',
      tools: [
        {
          name: 'lookup',
          description: 'Looks a term up.',
          input_schema: { type: 'object', properties: { term: { type: 'string' } }, required: ['term'] },
        },
      ],
      messages: [
        { role: 'user', content },
        { role: 'assistant', content: [{ type: 'text', text: 'Working on it.' }] },
      ],
      metadata: { user_id: 'bench' },
    }),
  );
}

/** Mean microseconds of `run` over enough repetitions to last about 300 ms. */
function microseconds(run: () => void): number {
  run();
  let reps = 1;
  for (;;) {
    const started = performance.now();
    for (let i = 0; i < reps; i++) run();
    const elapsed = performance.now() - started;
    if (elapsed > 300) return (elapsed * 1000) / reps;
    reps *= 2;
  }
}

console.log('per body: the shape scan next to JSON.parse (µs)');
console.log('body                          bytes      parse       scan   scan/parse');
const sizes: [string, Buffer][] = [
  ['messages, 2 KB of text', messagesBody(2_000)],
  ['messages, 64 KB of text', messagesBody(64_000)],
  ['messages + 1 MB image', messagesBody(2_000, 1_000_000)],
  ['video create + 30 MB image', messagesBody(500, 30_000_000)],
  ['10,000 small objects', Buffer.from(JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ i, s: 'x' }))))],
];
for (const [name, bytes] of sizes) {
  const parse = microseconds(() => JSON.parse(bytes.toString('utf8')));
  const scan = microseconds(() => jsonExcess(bytes));
  console.log(
    `${name.padEnd(28)} ${String(bytes.length).padStart(9)} ${parse.toFixed(1).padStart(10)} ${scan.toFixed(1).padStart(10)} ${(scan / parse).toFixed(3).padStart(12)}`,
  );
  if (name === 'messages, 2 KB of text') {
    reportHeadline({
      figure: 'JSON.parse + shape scan, 2 KB messages body (µs)',
      value: parse + scan,
      baseline: parse,
      unit: 'µs',
      baselineName: 'JSON.parse alone',
    });
  }
}

/** Median milliseconds of JSON.parse of `make(prefix)` over 3 texts, each with names of its own. */
let texts = 0;
function coldParseMs(make: (prefix: string) => string): number {
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const text = make(`r${texts++}x`);
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    JSON.parse(text);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[1] as number;
}
/** m objects of k keys each, named by `name(prefix, object, key)`, in an array (one object: the object alone). */
const objects = (m: number, k: number, name: (p: string, j: number, i: number) => string) => (p: string) => {
  const one = (j: number) => `{${Array.from({ length: k }, (_, i) => `"${name(p, j, i)}":0`).join(',')}}`;
  return m === 1 ? one(0) : `[${Array.from({ length: m }, (_, j) => one(j)).join(',')}]`;
};
const allNew = (k: number) => (p: string, j: number, i: number) => `${p}${j * k + i}`;
const sameNames = (p: string, _j: number, i: number) => `${p}${i}`;
console.log('\nJSON.parse of object keys, cold (median of 3 texts, ms)');
console.log('body                                              keys       bytes      parse   µs/key   scan');
const keyCases: [string, number, (p: string) => string][] = [
  ['one object, N new keys', 10_000, objects(1, 10_000, allNew(10_000))],
  ['one object, N new keys', 100_000, objects(1, 100_000, allNew(100_000))],
  ['one object, N new keys', 900_000, objects(1, 900_000, allNew(900_000))],
  ['10,000 objects of 90 keys, same names', 900_000, objects(10_000, 90, sameNames)],
  ['10,000 objects of 90 keys, new names', 900_000, objects(10_000, 90, allNew(90))],
  ['900 objects of 1,000 keys, same names', 900_000, objects(900, 1_000, sameNames)],
  ['900 objects of 1,000 keys, new names', 900_000, objects(900, 1_000, allNew(1_000))],
  [
    'array of N new short strings (values)',
    900_000,
    (p) => JSON.stringify(Array.from({ length: 900_000 }, (_, i) => `${p}${i}`)),
  ],
  ['100,000 empty objects (containers limit)', 0, (_p) => `[${Array(99_999).fill('{}').join(',')}]`],
  // What passes the key limit: its worst shapes found (small objects of new names).
  ['1,111 objects of 90 keys, new names', 99_990, objects(1_111, 90, allNew(90))],
  ['5,000 objects of 20 keys, new names', 100_000, objects(5_000, 20, allNew(20))],
  ['10,000 objects of 10 keys, new names', 100_000, objects(10_000, 10, allNew(10))],
  ['99,999 objects of 1 key, new names', 99_999, objects(99_999, 1, allNew(1))],
];
for (const [name, keys, make] of keyCases) {
  const sample = Buffer.from(make('s'));
  const parse = coldParseMs(make);
  const scan = microseconds(() => jsonExcess(sample)) / 1000;
  console.log(
    `${name.padEnd(44)} ${String(keys).padStart(10)} ${String(sample.length).padStart(11)} ${parse.toFixed(1).padStart(10)} ${(keys ? (parse * 1000) / keys : 0).toFixed(2).padStart(8)} ${(jsonExcess(sample) ?? 'passes').padStart(8)} (${scan.toFixed(2)} ms)`,
  );
}

async function requestsPerSecond(parsers: RequestHandler[], body: Buffer): Promise<number> {
  const app = express();
  app.use(parsers);
  app.post('/v1/messages', (req, res) => {
    res.json({ ok: typeof req.body === 'object' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
  const agent = new Agent({ connections: 16 });
  const send = async () => {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.body.dump();
  };
  for (let i = 0; i < 500; i++) await send(); // warm-up
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < deadline) {
        await send();
        done++;
      }
    }),
  );
  await agent.close();
  await new Promise((r) => server.close(r));
  return done / seconds;
}

// Alternating rounds, median of each side: the machine's other load moves both alike.
const httpBody = messagesBody(2_000);
const rounds = { bare: [] as number[], guarded: [] as number[] };
for (let round = 0; round < 3; round++) {
  rounds.bare.push(await requestsPerSecond([express.json({ limit: 33_554_432 })], httpBody));
  rounds.guarded.push(await requestsPerSecond(jsonBody(33_554_432), httpBody));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const [bare, guarded] = [median(rounds.bare), median(rounds.guarded)];
console.log(
  `\nHTTP, 2 KB messages body, 16 concurrent, median of 3 alternating rounds of ${seconds} s: ` +
    `express.json ${bare.toFixed(0)} req/s, jsonBody ${guarded.toFixed(0)} req/s`,
);
reportHeadline({
  figure: 'req/s, 2 KB messages body, 16 concurrent',
  value: guarded,
  baseline: bare,
  unit: 'req/s',
  baselineName: 'express.json()',
});
