/** Bytes HTTP allows in a field value (RFC 9110 §5.5): tab, space, visible ASCII and obs-text. Node and undici check the same. */
const FORBIDDEN = /[^\t\x20-\x7e\x80-\xff]/;

const NAMES: Record<number, string> = {
  0x00: 'a NUL byte (0x00)',
  0x0a: 'a line feed (LF, 0x0A)',
  0x0d: 'a carriage return (CR, 0x0D)',
  0x7f: 'a DEL byte (0x7F)',
};

/**
 * Why a static header value cannot be sent, or undefined when it can. Caught at load, a CR, LF
 * or NUL refuses the configuration; unchecked, undici would refuse every request to the URL and
 * each job would retry for the whole window.
 */
export function headerValueProblem(value: string): string | undefined {
  const bad = FORBIDDEN.exec(value);
  if (!bad) return undefined;
  const code = bad[0].codePointAt(0)!;
  const what =
    NAMES[code] ??
    (code < 0x20
      ? `a control character (0x${code.toString(16).padStart(2, '0').toUpperCase()})`
      : `"${bad[0]}" (U+${code.toString(16).toUpperCase().padStart(4, '0')}, beyond the one byte per character HTTP carries)`);
  return `the value holds ${what} at position ${bad.index}, which HTTP forbids in a header`;
}
