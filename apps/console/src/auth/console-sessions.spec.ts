import { ApiTokens, hashToken } from '@switchyard/service';
import { ConsoleSessions, SESSION_COOKIE } from './console-sessions';

const adminToken = 'a-long-enough-admin-token';
const viewerToken = 'a-long-enough-viewer-token';
const tokens = ApiTokens.from(adminToken, `support viewer sha256:${hashToken(viewerToken).toString('hex')}`);
const cookieOf = (setCookie: string) => setCookie.split(';')[0];

describe('ConsoleSessions', () => {
  let now = 1_000_000;
  const sessions = new ConsoleSessions(tokens, 60_000, true, () => now);

  it('issues an httpOnly, SameSite=Strict, Secure cookie that names its holder and does not hold the token', () => {
    const setCookie = sessions.issue(sessions.holderOf(adminToken)!);
    expect(setCookie).toMatch(
      new RegExp(
        `^${SESSION_COOKIE}=admin\\.\\d+\\.[\\w-]{43}; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure$`,
      ),
    );
    expect(setCookie).not.toContain(adminToken);
    expect(sessions.holderOfSession(`other=1; ${cookieOf(setCookie)}`)).toEqual({
      name: 'admin',
      role: 'admin',
    });
    const viewer = cookieOf(sessions.issue(sessions.holderOf(viewerToken)!));
    expect(sessions.holderOfSession(viewer)).toEqual({ name: 'support', role: 'viewer' });
  });

  it('refuses an expired, forged or foreign session, a session moved to another name, and any once the token changes', () => {
    const cookie = cookieOf(sessions.issue(sessions.holderOf(viewerToken)!));
    const [name, value] = cookie.split('=');
    const [holder, expires, signature] = value.split('.');
    expect(sessions.isValid(`${name}=${holder}.${Number(expires) + 1}.${signature}`)).toBe(false);
    expect(sessions.isValid(`${name}=admin.${expires}.${signature}`)).toBe(false);
    expect(sessions.isValid(`${name}=${holder}.${expires}.${'A'.repeat(43)}`)).toBe(false);
    expect(new ConsoleSessions(ApiTokens.from(adminToken), 60_000, false, () => now).isValid(cookie)).toBe(
      false,
    );
    expect(new ConsoleSessions(ApiTokens.from(undefined), 60_000, false, () => now).isValid(cookie)).toBe(
      false,
    );
    now += 60_001;
    expect(sessions.isValid(cookie)).toBe(false);
  });

  it('knows the configured tokens only', () => {
    expect(sessions.holderOf(adminToken)).toEqual({ name: 'admin', role: 'admin' });
    expect(sessions.holderOf(`${adminToken}x`)).toBeUndefined();
  });
});
