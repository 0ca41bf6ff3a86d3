import { createHash, timingSafeEqual } from 'node:crypto';

/** What a token may do: an admin sets up, replays and deletes; a viewer reads, secrets masked. */
export type TokenRole = 'admin' | 'viewer';

export interface TokenHolder {
  name: string;
  role: TokenRole;
}

interface KnownToken extends TokenHolder {
  sha256: Buffer;
}

const LINE = /^([A-Za-z0-9_.-]{1,64})\s+(admin|viewer)\s+sha256:([0-9a-f]{64})$/;

export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * The named tokens the management API accepts. Only hashes are held, so a tokens file (a
 * Kubernetes Secret) never holds a usable token. `ADMIN_TOKEN`, when set, is the admin token
 * named "admin", ahead of the file's.
 */
export class ApiTokens {
  private constructor(private readonly tokens: readonly KnownToken[]) {}

  /**
   * `fileText` holds one token a line, `<name> <admin|viewer> sha256:<hex of the token's SHA-256>`;
   * blank lines and lines starting with # are ignored. Throws naming the line that is wrong.
   */
  static from(adminToken: string | undefined, fileText = ''): ApiTokens {
    const tokens: KnownToken[] = adminToken
      ? [{ name: 'admin', role: 'admin', sha256: hashToken(adminToken) }]
      : [];
    fileText.split('\n').forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const match = LINE.exec(line);
      if (!match) throw new Error(`line ${i + 1}: write "<name> <admin|viewer> sha256:<64 hex digits>"`);
      if (tokens.some((t) => t.name === match[1]))
        throw new Error(`line ${i + 1}: token name "${match[1]}" is used twice`);
      tokens.push({ name: match[1], role: match[2] as TokenRole, sha256: Buffer.from(match[3], 'hex') });
    });
    return new ApiTokens(tokens);
  }

  get configured(): boolean {
    return this.tokens.length > 0;
  }

  /** The holder of `presented`, compared in constant time against every known hash; undefined when unknown. */
  holderOf(presented: string): TokenHolder | undefined {
    return this.byHash(hashToken(presented));
  }

  /** The hash of the token named `name`, which keys that holder's console sessions. */
  hashOf(name: string): Buffer | undefined {
    return this.tokens.find((t) => t.name === name)?.sha256;
  }

  holderNamed(name: string): TokenHolder | undefined {
    const token = this.tokens.find((t) => t.name === name);
    return token && { name: token.name, role: token.role };
  }

  private byHash(hash: Buffer): TokenHolder | undefined {
    let found: KnownToken | undefined;
    for (const token of this.tokens) if (timingSafeEqual(token.sha256, hash)) found ??= token;
    return found && { name: found.name, role: found.role };
  }
}
