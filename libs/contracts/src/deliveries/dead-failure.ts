/**
 * Why a delivery job ended in the dead-letter topic: the values of its failure header.
 * `destination-deleted` / `destination-disabled`: the job (fresh or waiting for a retry) found
 * its destination gone or switched off when its turn came.
 */
export const DEAD_FAILURES = [
  'permanent',
  'window-spent',
  'destination-deleted',
  'destination-disabled',
  'unreadable',
] as const;
export type DeadFailure = (typeof DEAD_FAILURES)[number];

/** What a reader reports for a failure header that no writer of this version produces. */
export const UNKNOWN_DEAD_FAILURE = 'unknown';
export type DeadFailureAsRead = DeadFailure | typeof UNKNOWN_DEAD_FAILURE;

export function readDeadFailure(text: string): DeadFailureAsRead {
  return (DEAD_FAILURES as readonly string[]).includes(text) ? (text as DeadFailure) : UNKNOWN_DEAD_FAILURE;
}
