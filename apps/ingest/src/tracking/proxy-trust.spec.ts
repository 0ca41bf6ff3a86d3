import { fastifyTrustProxy } from './proxy-trust';

describe('fastifyTrustProxy', () => {
  it('passes booleans and address lists through as Fastify takes them', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(true)).toBe(true);
    expect(fastifyTrustProxy('10.0.0.0/8,uniquelocal')).toBe('10.0.0.0/8,uniquelocal');
  });

  it('trusts the first n hops of a hop count, whatever their addresses', () => {
    const trusts = fastifyTrustProxy(2);
    if (typeof trusts !== 'function') throw new Error('a hop count becomes a trust function');
    expect([0, 1, 2, 3].map((hop) => trusts('203.0.113.9', hop))).toEqual([true, true, false, false]);
  });
});
