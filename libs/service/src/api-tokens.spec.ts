import { ApiTokens, hashToken } from './api-tokens';

const line = (name: string, role: string, token: string) =>
  `${name} ${role} sha256:${hashToken(token).toString('hex')}`;

describe('ApiTokens', () => {
  const tokens = ApiTokens.from(
    'the-admin-token',
    [
      '# operators',
      line('ci', 'admin', 'ci-token-0001'),
      '',
      line('support', 'viewer', 'viewer-token-0001'),
    ].join('\n'),
  );

  it('names the holder and role of each token, ADMIN_TOKEN first as "admin"', () => {
    expect(tokens.holderOf('the-admin-token')).toEqual({ name: 'admin', role: 'admin' });
    expect(tokens.holderOf('ci-token-0001')).toEqual({ name: 'ci', role: 'admin' });
    expect(tokens.holderOf('viewer-token-0001')).toEqual({ name: 'support', role: 'viewer' });
    expect(tokens.holderOf('viewer-token-0002')).toBeUndefined();
    expect(tokens.configured).toBe(true);
    expect(ApiTokens.from(undefined).configured).toBe(false);
  });

  it('refuses a badly written line or a name used twice, naming the line', () => {
    expect(() => ApiTokens.from(undefined, 'ci owner sha256:00')).toThrow('line 1: write "<name>');
    expect(() => ApiTokens.from('x-admin-token', line('admin', 'viewer', 'other'))).toThrow(
      'line 1: token name "admin" is used twice',
    );
  });
});
