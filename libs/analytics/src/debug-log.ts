/** A line of runtime logging; absent when logging is off, so `log?.(…)` costs nothing then. */
export type DebugLog = (message: string) => void;

/** Whether DEBUG names this library: `analytics`, in a comma or space separated list, or `*`. */
export function debugRequested(debugVariable: string | undefined): boolean {
  return (debugVariable ?? '').split(/[\s,]+/).some((name) => name === 'analytics' || name === '*');
}

/** Logging to stderr, one line per event, prefixed so it can be told apart from the program's own output. */
export function stderrDebugLog(
  write: (line: string) => void = (line) => process.stderr.write(line),
): DebugLog {
  return (message) => write(`analytics ${new Date().toISOString()} ${message}\n`);
}
