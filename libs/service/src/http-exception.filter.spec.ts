import { ArgumentsHost, HttpException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import pino from 'pino';
import { ErrorAnswerListener, HttpErrorFilter } from './http-exception.filter';

/** Runs the filter on `exception` and returns the status and body it answered with. */
function answer(
  exception: unknown,
  onErrorAnswer?: ErrorAnswerListener,
): { status: number; body: Record<string, unknown> } {
  const sent: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
  const reply = {
    request: { id: 'req-1' },
    status(code: number) {
      sent.status = code;
      return this;
    },
    send(body: Record<string, unknown>) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply }) } as unknown as ArgumentsHost;
  new HttpErrorFilter(pino({ level: 'silent' }), {}, onErrorAnswer).catch(exception, host);
  return sent;
}

describe('HttpErrorFilter', () => {
  it('answers "not configured" with 503 unavailable, not internal_error', () => {
    const { status, body } = answer(
      new ServiceUnavailableException('the dead-letter API is disabled: set ADMIN_TOKEN to enable it'),
    );
    expect(status).toBe(503);
    expect(body).toEqual({
      success: false,
      error: 'unavailable',
      message: 'the dead-letter API is disabled: set ADMIN_TOKEN to enable it',
    });
  });

  it('keeps internal_error for a bug, with an error id and no detail', () => {
    const { status, body } = answer(new TypeError('x is undefined'));
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      error: 'internal_error',
      errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('names a 4xx by its status', () => {
    expect(answer(new NotFoundException('no such thing')).body).toMatchObject({
      error: 'not_found',
      message: 'no such thing',
    });
  });

  it("tells the listener of every error answer with its status and error code, the framework's own included", () => {
    const told: Array<[number, string]> = [];
    const listener: ErrorAnswerListener = (_request, status, error) => told.push([status, error]);
    answer(new HttpException({ success: false, error: 'origin_not_allowed', message: 'no' }, 403), listener);
    answer(
      Object.assign(new Error('Body is not valid JSON'), {
        statusCode: 400,
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      }),
      listener,
    );
    answer(new NotFoundException(), listener);
    answer(new TypeError('bug'), listener);
    expect(told).toEqual([
      [403, 'origin_not_allowed'],
      [400, 'bad_request'],
      [404, 'not_found'],
      [500, 'internal_error'],
    ]);
  });
});
