import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard } from '@switchyard/service';
import { ConsoleSessions } from './console-sessions';

/** The console API takes the page's session cookie, or else the admin token as a bearer header (401 without either). */
@Injectable()
export class ConsoleAuthGuard implements CanActivate {
  constructor(
    private readonly bearer: AdminTokenGuard,
    private readonly sessions: ConsoleSessions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return this.sessions.isValid(request.headers.cookie) || this.bearer.canActivate(context);
  }
}
