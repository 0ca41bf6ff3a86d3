import { extractWriteKey } from './write-key';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('extractWriteKey', () => {
  it('reads the Basic username with an empty password (Go, Node, Ruby, Java SDKs)', () => {
    expect(extractWriteKey(basic('wk_123:'), {})).toBe('wk_123');
  });
  it('reads a Basic value without a colon', () => {
    expect(extractWriteKey(basic('wk_123'), {})).toBe('wk_123');
  });
  it('falls back to writeKey in the body (analytics-python)', () => {
    expect(extractWriteKey(undefined, { writeKey: 'wk_body' })).toBe('wk_body');
  });
  it('prefers the header to the body', () => {
    expect(extractWriteKey(basic('wk_header:'), { writeKey: 'wk_body' })).toBe('wk_header');
  });
  it.each([
    [undefined, {}],
    ['Bearer abc', {}],
    [basic(':password'), {}],
    [undefined, { writeKey: 7 }],
    [undefined, null],
  ])('finds none in %p / %p', (header, body) => {
    expect(extractWriteKey(header as string | undefined, body)).toBeUndefined();
  });
  it('answers the same for a header it has seen before, and for one with a body fallback', () => {
    const header = basic('wk_again:');
    expect([extractWriteKey(header, {}), extractWriteKey(header, {})]).toEqual(['wk_again', 'wk_again']);
    expect([
      extractWriteKey('Bearer x', { writeKey: 'a' }),
      extractWriteKey('Bearer x', { writeKey: 'b' }),
    ]).toEqual(['a', 'b']);
  });
});
