import { HttpException } from '@nestjs/common';

/** An answer of the management API that is not a success: the status, a code, and what to fix. */
export function workspaceError(
  status: number,
  error: string,
  message: string,
  problems?: string[],
): HttpException {
  return new HttpException({ success: false, error, message, ...(problems ? { problems } : {}) }, status);
}

export const invalid = (problems: string[]) =>
  workspaceError(
    400,
    'invalid',
    `the body breaks ${problems.length} rule(s); each problem names its field`,
    problems,
  );
export const notFound = (kind: string, id: string) => workspaceError(404, 'not_found', `no ${kind} "${id}"`);
export const conflict = (message: string) => workspaceError(409, 'conflict', message);
export const staleRevision = (kind: string, id: string, current: number) =>
  workspaceError(
    412,
    'stale_revision',
    `If-Match does not name ${kind} "${id}"'s current revision ("${current}"): read it again and re-apply the change`,
  );
export const unavailable = (reason: string) =>
  workspaceError(503, 'unavailable', `the workspace topic cannot be written: ${reason}`);
