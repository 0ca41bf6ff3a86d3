import { createHmac } from 'node:crypto';
import { sameSecret } from '@switchyard/service';

export const SESSION_COOKIE = 'switchyard_console';

/**
 * The page's login: the admin token is posted once, and the browser keeps a session cookie,
 * `<expiry>.<HMAC-SHA256 of the expiry keyed by the token>`. Nothing is stored server-side, a
 * restart keeps sessions, and changing ADMIN_TOKEN ends them all. The cookie is httpOnly and
 * SameSite=Strict (so no other site can make the browser use it: the console's forms need no
 * CSRF token), and `Secure` when configured.
 */
export class ConsoleSessions {
  constructor(
    private readonly token: string | undefined,
    private readonly ttlMs: number,
    private readonly secure: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `presented` is the admin token (constant time). */
  accepts(presented: string): boolean {
    return this.token !== undefined && sameSecret(presented, this.token);
  }

  /** The Set-Cookie value of a new session. */
  issue(): string {
    const expires = this.now() + this.ttlMs;
    return this.cookie(`${expires}.${this.sign(expires)}`, Math.floor(this.ttlMs / 1000));
  }

  /** The Set-Cookie value that ends the session. */
  clear(): string {
    return this.cookie('', 0);
  }

  isValid(cookieHeader: string | undefined): boolean {
    if (!this.token || !cookieHeader) return false;
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    const match = value === undefined ? null : /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return false;
    const expires = Number(match[1]);
    return expires > this.now() && sameSecret(match[2], this.sign(expires));
  }

  private sign(expires: number): string {
    return createHmac('sha256', this.token ?? '')
      .update(`switchyard-console-session:${expires}`)
      .digest('base64url');
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`;
  }
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
