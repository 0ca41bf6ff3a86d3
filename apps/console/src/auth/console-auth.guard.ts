import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTokens, TokenHolder } from '@switchyard/service';
import { workspaceError } from '../workspace/workspace-errors';
import { ConsoleSessions } from './console-sessions';

type AuthenticatedRequest = FastifyRequest & { holder?: TokenHolder };

/** Methods a viewer may use: reading only. */
const READS = new Set(['GET', 'HEAD']);

/**
 * The console API takes the page's session cookie, or else a named token as a bearer header. No
 * token configured: 503, the API is off rather than open. No or unknown token: 401. A viewer's
 * token on anything but a read: 403.
 */
@Injectable()
export class ConsoleAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: ApiTokens,
    private readonly sessions: ConsoleSessions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!this.tokens.configured)
      throw workspaceError(
        503,
        'unavailable',
        'the console API is disabled: set ADMIN_TOKEN or API_TOKENS_FILE',
      );
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    const holder =
      this.sessions.holderOfSession(request.headers.cookie) ?? (bearer && this.tokens.holderOf(bearer));
    if (!holder)
      throw workspaceError(401, 'unauthorized', 'send a token as "Authorization: Bearer <token>", or log in');
    if (holder.role !== 'admin' && !READS.has(request.method))
      throw workspaceError(403, 'forbidden', `token "${holder.name}" is a viewer's: it may only read`);
    request.holder = holder;
    return true;
  }
}

/** The holder of the token the request was made with (set by ConsoleAuthGuard). */
export const Holder = createParamDecorator(
  (_data: unknown, context: ExecutionContext): TokenHolder =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().holder!,
);
