import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** Called with each error answer's request, status and `error` code. */
export type ErrorAnswerListener = (request: FastifyRequest, status: number, error: string) => void;

/**
 * One place that turns errors into HTTP answers. 4xx carry a reason the caller can act on;
 * anything unexpected becomes a 500 with an error id, and the detail goes to the log only.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    /** Clearer wording for the framework's own errors by status, e.g. a 413 that names the body limit. */
    private readonly messages: Record<number, string> = {},
    /** Told of every error answer, so a service can count refusals, the framework's own included. */
    private readonly onErrorAnswer: ErrorAnswerListener = () => {},
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const reqId = reply.request?.id;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const body =
        typeof response === 'object' && response !== null && 'success' in response
          ? response
          : {
              success: false,
              error: errorCode(status),
              message: this.messages[status] ?? messageOf(response, exception),
            };
      this.onErrorAnswer(reply.request, status, String((body as { error?: unknown }).error));
      void reply.status(status).send(body);
      return;
    }
    const fastifyStatus = (exception as { statusCode?: number }).statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      // Fastify's own body errors (too large, bad JSON, bad content type) arrive here.
      // Fastify's own errors (codes FST_*) get the clearer wording; errors our hooks raise keep theirs.
      const own = !String((exception as { code?: string }).code ?? '').startsWith('FST_');
      const message = (own ? undefined : this.messages[fastifyStatus]) ?? (exception as Error).message;
      this.onErrorAnswer(reply.request, fastifyStatus, errorCode(fastifyStatus));
      void reply.status(fastifyStatus).send({ success: false, error: errorCode(fastifyStatus), message });
      return;
    }
    const errorId = randomUUID();
    this.logger.error({ errorId, reqId, err: exception }, 'unhandled error');
    this.onErrorAnswer(reply.request, HttpStatus.INTERNAL_SERVER_ERROR, 'internal_error');
    void reply
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .send({ success: false, error: 'internal_error', errorId });
  }
}

function messageOf(response: unknown, exception: Error): string {
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const m = (response as { message: unknown }).message;
    return Array.isArray(m) ? m.join('; ') : String(m);
  }
  return exception.message;
}

function errorCode(status: number): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    // Not configured, or a dependency down: the caller may retry; `internal_error` is kept for bugs.
    case 502:
    case 503:
    case 504:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'request_error';
  }
}
