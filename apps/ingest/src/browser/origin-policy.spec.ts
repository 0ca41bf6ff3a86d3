import { isOriginAllowed } from './origin-policy';

describe('isOriginAllowed', () => {
  const list = ['https://shop.example.com', 'https://*.example.org', 'http://localhost:3000'];

  it.each([
    ['any origin when the source lists none', undefined, 'https://anything.test', true],
    ['an exact entry', list, 'https://shop.example.com', true],
    ['an exact entry, whatever the case', list, 'https://Shop.Example.com', true],
    ['an entry with its port', list, 'http://localhost:3000', true],
    ['a subdomain of a wildcard entry', list, 'https://a.example.org', true],
    ['a deeper subdomain of a wildcard entry', list, 'https://a.b.example.org', true],
    ['another scheme', list, 'http://shop.example.com', false],
    ['another port', list, 'http://localhost:3001', false],
    ['the wildcard domain itself', list, 'https://example.org', false],
    ['a domain that only ends like it', list, 'https://evilexample.org', false],
    ['a wildcard domain with a port it did not list', list, 'https://a.example.org:8443', false],
    ['an opaque origin (sandboxed frame, file://)', list, 'null', false],
  ])('%s', (_name, allowed, origin, expected) => {
    expect(isOriginAllowed(allowed, origin)).toBe(expected);
  });
});
