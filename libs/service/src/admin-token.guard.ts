import { CanActivate, ExecutionContext, HttpException, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The configured admin token (`ADMIN_TOKEN`); an app provides it from its validated settings. */
export class AdminToken {
  constructor(readonly value: string | undefined) {}
}

/**
 * Every admin endpoint needs `Authorization: Bearer <ADMIN_TOKEN>`. Without a configured token
 * the endpoints are switched off (503 `unavailable`) rather than open; a missing or wrong token
 * is a 401. Both sides are hashed before the constant-time comparison, so neither the token nor
 * its length shows in the answer's timing.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly token: AdminToken) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.token.value;
    if (!expected) {
      throw new HttpException(
        {
          success: false,
          error: 'unavailable',
          message: 'admin endpoints are disabled: set ADMIN_TOKEN to enable them',
        },
        503,
      );
    }
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const presented = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (!presented || !sameSecret(presented, expected)) {
      throw new HttpException(
        {
          success: false,
          error: 'unauthorized',
          message: 'send the admin token as "Authorization: Bearer <token>"',
        },
        401,
      );
    }
    return true;
  }
}

/** Compares two secrets in constant time, whatever their lengths (both are hashed first). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
