const SHOWN = 4;
const HIDDEN = '••••';

/**
 * How a secret appears in API answers, pages and audit records: its last four characters when
 * it is long enough that they give nothing useful away, otherwise nothing of it.
 */
export function maskSecret(secret: string): string {
  return secret.length >= 4 * SHOWN ? `${HIDDEN}${secret.slice(-SHOWN)}` : HIDDEN;
}

/** True when a value sent back by a client is a mask this service produced: "keep the stored secret". */
export function isMask(value: string): boolean {
  return value.startsWith(HIDDEN);
}
