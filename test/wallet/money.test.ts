import { formatMicros, microsToNumber, moneyInput, parseMicros, unitsToMicros } from '../../shared/wallet/money.js';

describe('money in micro-units', () => {
  it('reads decimal numbers and strings exactly, up to 6 decimals', () => {
    expect(parseMicros(0.1)).toBe(100_000n);
    expect(parseMicros('12.345678')).toBe(12_345_678n);
    expect(parseMicros(10)).toBe(10_000_000n);
    expect(parseMicros('0.000001')).toBe(1n);
  });

  it('refuses more than 6 decimals, negatives, exponents and non-numbers', () => {
    for (const bad of [0.0000001, '1.1234567', -1, '-1', '1e3', 'abc', '', null, true, Number.NaN, {}]) {
      expect(parseMicros(bad)).toBeUndefined();
    }
  });

  it('shows micro-units as decimal numbers in JSON', () => {
    expect(formatMicros(1_234_567n)).toBe('1.234567');
    expect(formatMicros(-1_500_000n)).toBe('-1.5');
    expect(JSON.stringify({ balance: microsToNumber(100_000n) })).toBe('{"balance":0.1}');
    expect(microsToNumber(0n)).toBe(0);
  });

  it('prices a web request at 0.001 units times the multiplier', () => {
    expect(unitsToMicros(0.001 * 1)).toBe(1_000n);
    expect(unitsToMicros(0.001 * 1.5)).toBe(1_500n);
  });

  it('validates money inputs with a message naming the rule', () => {
    const positive = moneyInput({ positive: true });
    expect(positive.safeParse(0).success).toBe(false);
    expect(positive.safeParse(-2).error?.issues[0]?.message).toBe('must not be negative');
    expect(positive.safeParse(1.0000001).error?.issues[0]?.message).toMatch(/6 decimals/);
    expect(positive.safeParse('2.5').data).toBe(2_500_000n);
  });
});
