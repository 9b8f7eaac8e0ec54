import { describe, expect, it } from 'vitest';
import { Admission } from './admission.js';

describe('Admission options and Retry-After (hostile configuration)', () => {
  it.each([
    ['requestsPerSecond', Number.NaN],
    ['requestsPerSecond', 0],
    ['requestsPerSecond', -1],
    ['burst', Number.NaN],
    ['maxConcurrentRequests', Number.NaN],
    ['maxTracked', -5],
  ])('refuses principals.%s = %s instead of silently turning the limit off', (name, value) => {
    expect(() => new Admission({ [name]: value })).toThrow(RangeError);
  });

  it('sends Retry-After as whole seconds, at most a day, even for a tiny rate', () => {
    const admission = new Admission({ requestsPerSecond: 1e-30, burst: 1 });
    expect('release' in admission.admit('p')).toBe(true);
    const refused = admission.admit('p');
    if (!('response' in refused)) throw new Error('the second request should be refused');
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers?.['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(Number(refused.response.headers?.['retry-after'])).toBeLessThanOrEqual(86_400);
  });
});
