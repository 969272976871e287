// The bounded gate: never more than `running` at once, at most `waiting` in line (first come, first served), the
// rest refused at once; a failing call frees its slot like a succeeding one.
import { BoundedGate } from '../../shared/concurrency/bounded-gate.js';

type Held = { release(): void; failWith(err: Error): void };

/** A call that runs until the test releases it. */
function held(gate: BoundedGate, started: string[], name: string): { done: Promise<string>; control: Promise<Held> } {
  let control!: (h: Held) => void;
  const controlled = new Promise<Held>((resolve) => {
    control = resolve;
  });
  const done = gate.run(
    () =>
      new Promise<string>((resolve, reject) => {
        started.push(name);
        control({ release: () => resolve(name), failWith: reject });
      }),
  );
  return { done, control: controlled };
}

const busy = () => new Error('busy');

it('runs at most `running` at once, lines up `waiting` more in order, and refuses the rest at once', async () => {
  const gate = new BoundedGate({ running: 2, waiting: 2 }, busy);
  const started: string[] = [];
  const calls = ['a', 'b', 'c', 'd'].map((name) => held(gate, started, name));
  await expect(gate.run(async () => 'e')).rejects.toThrow('busy');
  expect(gate.load).toEqual({ running: 2, waiting: 2 });
  expect(started).toEqual(['a', 'b']);

  (await calls[1]?.control)?.release();
  await expect(calls[1]?.done).resolves.toBe('b');
  await calls[2]?.control;
  expect(started).toEqual(['a', 'b', 'c']);
  expect(gate.load).toEqual({ running: 2, waiting: 1 });

  (await calls[0]?.control)?.failWith(new Error('a failed'));
  await expect(calls[0]?.done).rejects.toThrow('a failed');
  await calls[3]?.control;
  expect(started).toEqual(['a', 'b', 'c', 'd']);

  (await calls[2]?.control)?.release();
  (await calls[3]?.control)?.release();
  await Promise.all([calls[2]?.done, calls[3]?.done]);
  expect(gate.load).toEqual({ running: 0, waiting: 0 });
  await expect(gate.run(async () => 'after')).resolves.toBe('after');
});

it('keeps the bound under many concurrent callers', async () => {
  const gate = new BoundedGate({ running: 3, waiting: 5 }, busy);
  let now = 0;
  let most = 0;
  const results = await Promise.allSettled(
    Array.from({ length: 40 }, () =>
      gate.run(async () => {
        now++;
        most = Math.max(most, now);
        await new Promise((resolve) => setImmediate(resolve));
        now--;
      }),
    ),
  );
  expect(most).toBe(3);
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
  expect(results.filter((r) => r.status === 'rejected')).toHaveLength(32);
});
