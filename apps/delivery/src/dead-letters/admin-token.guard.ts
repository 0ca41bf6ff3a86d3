import { CanActivate, ExecutionContext, Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DeliverySettings } from '../delivery-settings';

/** `Authorization: Bearer <ADMIN_TOKEN>`; the endpoints are off (503) when no token is configured. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly settings: DeliverySettings) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.settings.adminToken;
    if (!expected) throw new ServiceUnavailableException('the dead-letter API is disabled: set ADMIN_TOKEN to enable it');
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = /^Bearer (.+)$/.exec(header)?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new UnauthorizedException('a valid "Authorization: Bearer <ADMIN_TOKEN>" header is required');
    return true;
  }
}
