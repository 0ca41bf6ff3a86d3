import { ExecutionContext, HttpException } from '@nestjs/common';
import { AdminToken, AdminTokenGuard } from './admin-token.guard';

const contextWith = (authorization?: string) =>
  ({
    switchToHttp: () => ({
      getRequest: () => ({ headers: authorization === undefined ? {} : { authorization } }),
    }),
  }) as unknown as ExecutionContext;

/** The status and body the guard refuses with, or 'allowed'. */
function verdict(
  token: string | undefined,
  authorization?: string,
): 'allowed' | { status: number; body: unknown } {
  try {
    new AdminTokenGuard(new AdminToken(token)).canActivate(contextWith(authorization));
    return 'allowed';
  } catch (e) {
    const error = e as HttpException;
    return { status: error.getStatus(), body: error.getResponse() };
  }
}

describe('AdminTokenGuard', () => {
  const token = 'a-long-enough-admin-token';

  it('lets the configured token through, case-insensitive scheme and surrounding spaces allowed', () => {
    expect(verdict(token, `Bearer ${token}`)).toBe('allowed');
    expect(verdict(token, `bearer   ${token} `)).toBe('allowed');
  });

  it('answers 401 with one body for a missing, wrong, shorter or longer token', () => {
    const refusals = [
      undefined,
      '',
      'Bearer nope',
      `Bearer ${token.slice(1)}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
    ].map((h) => verdict(token, h));
    for (const r of refusals)
      expect(r).toEqual({
        status: 401,
        body: {
          success: false,
          error: 'unauthorized',
          message: 'send the admin token as "Authorization: Bearer <token>"',
        },
      });
  });

  it('answers 503 unavailable when no token is configured, whatever is sent', () => {
    expect(verdict(undefined, `Bearer ${token}`)).toMatchObject({
      status: 503,
      body: { error: 'unavailable' },
    });
  });
});
