// The rest a password hashing thread takes between keys to keep to its share of a core (shared/identity/hashing-pace.ts).
// Times are given, not measured: the arithmetic is what is tested; that threads receive the setting is tested in
// password-hashing.test.ts.
import { hashingPace } from '../../shared/identity/hashing-pace.js';

describe('hashing pace', () => {
  it('lets the first key start at once', () => {
    expect(hashingPace(0.5).restBefore(0)).toBe(0);
  });

  it('at half a core, rests as long as the last key took, counted from its end', () => {
    const pace = hashingPace(0.5);
    expect(pace.derived(100, 140)).toBe(80); // 40 ms of work, 40 of rest: 80 ms of the thread's time per key
    expect(pace.restBefore(140)).toBe(40);
    expect(pace.restBefore(170)).toBe(10);
    expect(pace.restBefore(180)).toBe(0);
    expect(pace.restBefore(500)).toBe(0);
  });

  it('at a quarter, rests three times as long; at a whole core, never', () => {
    const quarter = hashingPace(0.25);
    quarter.derived(0, 20);
    expect(quarter.restBefore(20)).toBe(60);
    const whole = hashingPace(1);
    expect(whole.derived(0, 20)).toBe(20);
    expect(whole.restBefore(20)).toBe(0);
  });

  it('follows the last key only, so a slow key does not hold back the ones after it', () => {
    const pace = hashingPace(0.5);
    pace.derived(0, 400);
    pace.derived(800, 830);
    expect(pace.restBefore(830)).toBe(30);
  });

  it.each([0, -0.5, 1.5, Number.NaN])('refuses a share of %p', (share) => {
    expect(() => hashingPace(share)).toThrow(RangeError);
  });
});
