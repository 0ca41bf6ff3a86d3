/** Kafka record headers as kafkajs hands them out (Buffers, arrays when repeated) or as written (strings). */
export type RecordHeaders = Record<string, unknown> | undefined;

/** Reads one header as a string. */
export function headerString(headers: RecordHeaders, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  return Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
}
