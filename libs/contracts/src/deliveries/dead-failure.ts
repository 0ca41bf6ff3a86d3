/** Why a delivery job ended in the dead-letter topic: the values of its failure header. */
export const DEAD_FAILURES = ['permanent', 'window-spent', 'undeliverable', 'unreadable'] as const;
export type DeadFailure = (typeof DEAD_FAILURES)[number];

/** What a reader reports for a failure header that no writer of this version produces. */
export const UNKNOWN_DEAD_FAILURE = 'unknown';
export type DeadFailureAsRead = DeadFailure | typeof UNKNOWN_DEAD_FAILURE;

export function readDeadFailure(text: string): DeadFailureAsRead {
  return (DEAD_FAILURES as readonly string[]).includes(text) ? (text as DeadFailure) : UNKNOWN_DEAD_FAILURE;
}
