import { isMask, maskSecret } from './masking';

describe('maskSecret', () => {
  it('shows only the last four characters of a long secret, and nothing of a short one', () => {
    expect(maskSecret('whsec_0123456789abcdef')).toBe('••••cdef');
    expect(maskSecret('short-secret')).toBe('••••');
    expect(isMask(maskSecret('whsec_0123456789abcdef'))).toBe(true);
    expect(isMask('a-real-secret')).toBe(false);
  });
});
