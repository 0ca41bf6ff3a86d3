/** How traces are exported, read from OpenTelemetry's standard variables. */
export interface TracingSettings {
  protocol: OtlpProtocol;
}

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The samplers the SDK builds from `OTEL_TRACES_SAMPLER`; it would fall back to the default on any other value. */
export const TRACES_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

/**
 * Checks the `OTEL_*` values that the SDK would otherwise replace by a default with a log line
 * nobody reads (a misspelt sampler would silently trace everything, `grpc` would silently export
 * to the wrong port), so a bad value stops start-up with a message naming the variable.
 */
export function tracingSettingsFromEnv(env: NodeJS.ProcessEnv): TracingSettings {
  const problems: string[] = [];
  const protocolVariable =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[protocolVariable] ?? '').trim() || 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    problems.push(
      `${protocolVariable} must be one of: ${OTLP_PROTOCOLS.join(', ')} (got "${protocol}"; the services export over HTTP, a collector's port 4318)`,
    );
  }
  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  if (sampler && !(TRACES_SAMPLERS as readonly string[]).includes(sampler)) {
    problems.push(`OTEL_TRACES_SAMPLER must be one of: ${TRACES_SAMPLERS.join(', ')} (got "${sampler}")`);
  }
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (ratio && sampler?.endsWith('traceidratio') && !(Number(ratio) >= 0 && Number(ratio) <= 1)) {
    problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got "${ratio}")`);
  }
  if (problems.length > 0) throw new Error(`invalid tracing settings: ${problems.join('; ')}`);
  return { protocol: protocol as OtlpProtocol };
}
