import { CanActivate, ExecutionContext, HttpException, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IngestSettings } from '../ingest-settings';

/**
 * Admin endpoints need `Authorization: Bearer <ADMIN_TOKEN>`. Without a configured token they
 * are switched off (503) rather than open; a missing or wrong token is a 401.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly settings: IngestSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.settings.adminToken;
    if (!expected) {
      throw new HttpException({ success: false, error: 'unavailable', message: 'admin endpoints are disabled: set ADMIN_TOKEN to enable them' }, 503);
    }
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const presented = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (!presented || !sameSecret(presented, expected)) {
      throw new HttpException({ success: false, error: 'unauthorized', message: 'send the admin token as "Authorization: Bearer <token>"' }, 401);
    }
    return true;
  }
}

/** Constant-time comparison; hashing first makes the lengths equal without revealing them. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
