// Login with an unknown e-mail versus a wrong password: both must cost the same (one password verification).
// Prints the medians of alternating runs and their difference; the issue asks for none visible at 10 ms.
import supertest from 'supertest';
import { createAccount } from '../../shared/identity/accounts.js';
import { benchArgs } from './bench-args.js';
import { median, openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [rounds] = benchArgs(import.meta.url, [['rounds', 15]]);
// Every attempt goes through the guessing limits (one Redis step), set high enough never to refuse here.
const bench = await openBenchContext('login', {
  AUTH_FAILURES_PER_ACCOUNT: '1000000',
  AUTH_FAILURES_PER_ADDRESS: '1000000',
});
try {
  const http = supertest(bench.app);
  await createAccount(bench.ctx, { email: 'timing@bench.local', name: 'Timing', password: 'the-right-password' });
  const time = async (email: string) => {
    const t = process.hrtime.bigint();
    const res = await http.post('/api/v1/auth/login').send({ email, password: 'a-wrong-password' });
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  await time('warmup@bench.local');
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < rounds; i++) {
    unknown.push(await time(`nobody-${i}@bench.local`));
    wrong.push(await time('timing@bench.local'));
  }
  const u = median(unknown);
  const w = median(wrong);
  console.log('login timing (median of %d alternating runs)', rounds);
  console.log('  unknown e-mail : %s ms', u.toFixed(1));
  console.log('  wrong password : %s ms', w.toFixed(1));
  console.log('  difference     : %s ms (ratio %s)', Math.abs(u - w).toFixed(1), (u / w).toFixed(3));
  reportHeadline({
    figure: 'unknown e-mail login, median',
    value: u,
    baseline: w,
    unit: 'ms',
    baselineName: 'wrong password',
  });
} finally {
  await bench.close();
}
