// Exact money: integer micro-units (1 USD = 1,000,000) as bigint inside the process, decimal numbers in JSON.
import { z } from 'zod';
import { trimTrailing } from '../text/trim-trailing.js';

export const MICROS_PER_UNIT = 1_000_000n;
/** The largest amount one input may carry: 1,000,000,000 units (far below bigint column limits). */
export const MAX_INPUT_MICROS = 1_000_000_000n * MICROS_PER_UNIT;

const decimalPattern = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * Parses a decimal amount ("12.5", 12.5) into micro-units, or undefined when it is not a plain
 * non-negative decimal with at most 6 fractional digits. JSON numbers are read through their shortest
 * decimal form (what the client wrote), so 0.1 is exactly 100000 micros.
 */
export function parseMicros(value: unknown): bigint | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const match = decimalPattern.exec(text);
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * MICROS_PER_UNIT + BigInt(fraction.padEnd(6, '0'));
}

/** Micro-units as a decimal string ("-1.5", "0.000001"), exact. */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_UNIT;
  const fraction = trimTrailing((abs % MICROS_PER_UNIT).toString().padStart(6, '0'), /0/);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Micro-units as the JSON number of the public API: the decimal written out, e.g. 1234567n → 1.234567. */
export const microsToNumber = (micros: bigint): number => Number(formatMicros(micros));

/** Whole units (e.g. a price of 0.001 × multiplier) to micro-units, rounded to the nearest micro. */
export function unitsToMicros(units: number): bigint {
  if (!Number.isFinite(units) || units < 0) throw new RangeError(`not a money amount: ${units}`);
  return BigInt(Math.round(units * 1_000_000));
}

const moneyMessage = 'must be a number with at most 6 decimals';

/** A money input: a JSON number or decimal string, with at most 6 decimals, within the input limit. */
export const moneyInput = (options: { positive?: boolean } = {}) =>
  z.unknown().transform((value, ctx) => {
    const micros = parseMicros(value);
    if (micros === undefined) {
      const negative = (typeof value === 'number' && value < 0) || (typeof value === 'string' && /^\s*-/.test(value));
      ctx.addIssue({ code: 'custom', message: negative ? 'must not be negative' : moneyMessage });
      return z.NEVER;
    }
    if (options.positive && micros <= 0n) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than zero' });
      return z.NEVER;
    }
    if (micros > MAX_INPUT_MICROS) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${formatMicros(MAX_INPUT_MICROS)}` });
      return z.NEVER;
    }
    return micros;
  });
