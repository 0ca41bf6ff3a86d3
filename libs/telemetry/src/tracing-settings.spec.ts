import { tracingSettingsFromEnv } from './tracing-settings';

describe('tracing settings from the standard OTEL_* variables', () => {
  it('exports protobuf over HTTP by default, JSON when asked, the traces-specific variable first', () => {
    expect(tracingSettingsFromEnv({})).toEqual({ protocol: 'http/protobuf' });
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
      protocol: 'http/json',
    });
    expect(
      tracingSettingsFromEnv({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }),
    ).toEqual({ protocol: 'http/protobuf' });
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /OTEL_EXPORTER_OTLP_PROTOCOL must be one of: http\/protobuf, http\/json \(got "grpc"/,
    ],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' }, /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be one of/],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_sometimes' },
      /OTEL_TRACES_SAMPLER must be one of: parentbased_always_on, .* \(got "parentbased_sometimes"\)/,
    ],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '10%' },
      /OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 \(got "10%"\)/,
    ],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, /OTEL_TRACES_SAMPLER_ARG/],
  ])('refuses %p, naming the variable', (env, message) => {
    expect(() => tracingSettingsFromEnv(env)).toThrow(message);
  });

  it('accepts every sampler the SDK builds, and a ratio for the ratio samplers', () => {
    for (const sampler of ['parentbased_always_on', 'parentbased_always_off', 'always_on', 'always_off']) {
      expect(() => tracingSettingsFromEnv({ OTEL_TRACES_SAMPLER: sampler })).not.toThrow();
    }
    expect(() =>
      tracingSettingsFromEnv({
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }),
    ).not.toThrow();
  });
});
