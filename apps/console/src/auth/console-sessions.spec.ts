import { ConsoleSessions, SESSION_COOKIE } from './console-sessions';

const token = 'a-long-enough-admin-token';
const cookieOf = (setCookie: string) => setCookie.split(';')[0];

describe('ConsoleSessions', () => {
  let now = 1_000_000;
  const sessions = new ConsoleSessions(token, 60_000, true, () => now);

  it('issues an httpOnly, SameSite=Strict, Secure cookie that does not hold the token', () => {
    const setCookie = sessions.issue();
    expect(setCookie).toMatch(
      new RegExp(
        `^${SESSION_COOKIE}=\\d+\\.[\\w-]{43}; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure$`,
      ),
    );
    expect(setCookie).not.toContain(token);
    expect(sessions.isValid(`other=1; ${cookieOf(setCookie)}`)).toBe(true);
  });

  it('refuses an expired, forged or foreign session, and any session once the token changes', () => {
    const cookie = cookieOf(sessions.issue());
    const [name, value] = cookie.split('=');
    const [expires, signature] = value.split('.');
    expect(sessions.isValid(`${name}=${Number(expires) + 1}.${signature}`)).toBe(false);
    expect(sessions.isValid(`${name}=${expires}.${'A'.repeat(43)}`)).toBe(false);
    expect(new ConsoleSessions('another-long-admin-token', 60_000, false, () => now).isValid(cookie)).toBe(
      false,
    );
    expect(new ConsoleSessions(undefined, 60_000, false, () => now).isValid(cookie)).toBe(false);
    now += 60_001;
    expect(sessions.isValid(cookie)).toBe(false);
  });

  it('accepts the admin token only', () => {
    expect(sessions.accepts(token)).toBe(true);
    expect(sessions.accepts(`${token}x`)).toBe(false);
    expect(new ConsoleSessions(undefined, 60_000, false).accepts('')).toBe(false);
  });
});
