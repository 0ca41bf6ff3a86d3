import { createHmac } from 'node:crypto';
import { ApiTokens, sameSecret, TokenHolder } from '@switchyard/service';

export const SESSION_COOKIE = 'switchyard_console';

/**
 * The page's login: a named token is posted once, and the browser keeps a session cookie,
 * `<token name>.<expiry>.<HMAC-SHA256 of both, keyed by the token's hash>`. Nothing is stored
 * server-side, a restart keeps sessions, and changing or removing a token ends its sessions. The
 * cookie is httpOnly and SameSite=Strict (so no other site can make the browser use it: the
 * console's forms need no CSRF token), and `Secure` when configured.
 */
export class ConsoleSessions {
  constructor(
    private readonly tokens: ApiTokens,
    private readonly ttlMs: number,
    private readonly secure: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** The holder of `presented`, or undefined when it is no known token. */
  holderOf(presented: string): TokenHolder | undefined {
    return this.tokens.holderOf(presented);
  }

  /** The Set-Cookie value of a new session for the token's holder. */
  issue(holder: TokenHolder): string {
    const expires = this.now() + this.ttlMs;
    const signature = this.sign(holder.name, expires) ?? '';
    return this.cookie(`${holder.name}.${expires}.${signature}`, Math.floor(this.ttlMs / 1000));
  }

  /** The Set-Cookie value that ends the session. */
  clear(): string {
    return this.cookie('', 0);
  }

  /** Who the session cookie in `cookieHeader` belongs to, while it is valid. */
  holderOfSession(cookieHeader: string | undefined): TokenHolder | undefined {
    if (!cookieHeader) return undefined;
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    const match =
      value === undefined ? null : /^([A-Za-z0-9_.-]{1,64})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return undefined;
    const [, name, expiresText, signature] = match;
    const expires = Number(expiresText);
    const expected = this.sign(name, expires);
    if (expires <= this.now() || !expected || !sameSecret(signature, expected)) return undefined;
    return this.tokens.holderNamed(name);
  }

  isValid(cookieHeader: string | undefined): boolean {
    return this.holderOfSession(cookieHeader) !== undefined;
  }

  private sign(name: string, expires: number): string | undefined {
    const key = this.tokens.hashOf(name);
    return (
      key &&
      createHmac('sha256', key).update(`switchyard-console-session:${name}:${expires}`).digest('base64url')
    );
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
