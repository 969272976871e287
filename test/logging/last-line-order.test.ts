// A stopping process's last log line is its last: it waits for the lines already on their way before it exits. Without
// that, pino's exit flush wrote the queued lines synchronously while an earlier line was still being written, so a
// worker's "job done" could come after its "worker stopped" (seen once in CI), and a long line could be cut.
import { spawn } from 'node:child_process';

function linesOf(wait: boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/logging/exit-after-lines.ts'], {
      env: { ...process.env, WAIT: wait ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () => resolve(out.trim().split('\n')));
  });
}

const messages = (lines: string[]) =>
  lines.map((line) => {
    try {
      return (JSON.parse(line) as { msg: string }).msg;
    } catch {
      return 'a cut line';
    }
  });

it('writes every line, in order, before a process that waits for linesWritten exits', async () => {
  expect(messages(await linesOf(true))).toEqual(['first', 'last']);
});
