import { randomUUID } from 'node:crypto';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { serviceVersion } from './service-version';
import { markTracingOn } from './tracing-state';
import { OtlpProtocol, tracingSettingsFromEnv } from './tracing-settings';
import { redactUrlForSpans } from './url-redaction';

let sdk: NodeSDK | undefined;

/** Tracing is on when an OTLP endpoint is configured by the standard variables, and not disabled. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED ?? '')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/* eslint-disable @typescript-eslint/no-require-imports -- the SDK is loaded only when tracing is on */

/** The OTLP/HTTP exporter of the configured encoding; both read the endpoint and headers variables themselves. */
function otlpExporter(protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } =
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

/**
 * Starts the OpenTelemetry SDK, configured by the standard `OTEL_*` variables: OTLP over HTTP
 * in protobuf (the SDK's default) or JSON (`OTEL_EXPORTER_OTLP_PROTOCOL`), and the sampler of
 * `OTEL_TRACES_SAMPLER` (parent-based by default, so a decision made upstream holds across
 * Kafka). Must run before Nest, Fastify and undici are loaded, so each service's main.ts imports
 * its `instrument.ts` first. Without an endpoint it does nothing, and the SDK is not even loaded
 * (it costs tens of MB of memory). A bad value throws, naming the variable.
 *
 * Kafka hops are traced by hand (kafka-trace.ts), not by `@opentelemetry/instrumentation-kafkajs`:
 * ingest and the router batch the records of many requests into one produce request, and that
 * instrumentation gives every record of a request the context active when it is sent (one
 * caller's), which would join unrelated traces.
 */
export function startTracing(serviceName: string): void {
  startTracingAs(`switchyard-${serviceName}`);
}

/** startTracing under an OpenTelemetry service name of the caller's: the all-in-one process is `switchyard`. */
export function startTracingAs(otelServiceName: string): void {
  if (sdk || !tracingEnabled()) return;
  const settings = tracingSettingsFromEnv(process.env);
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { defaultResource, resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  sdk = new NodeSDK({
    // Defaults only: the SDK's environment detector applies OTEL_SERVICE_NAME and
    // OTEL_RESOURCE_ATTRIBUTES over them (a pod name as service.instance.id, for instance).
    resource: defaultResource().merge(
      resourceFromAttributes({
        'service.name': otelServiceName,
        'service.version': serviceVersion(),
        'service.instance.id': randomUUID(),
      }),
    ),
    traceExporter: otlpExporter(settings.protocol),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(health|metrics)/.test(req.url ?? ''),
      }),
      new UndiciInstrumentation({
        startSpanHook: (request) => {
          const { full, query } = redactUrlForSpans(new URL(request.path, request.origin));
          return { 'url.full': full, 'url.query': query };
        },
      }),
    ],
  });
  sdk.start();
  markTracingOn();
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** Sends buffered spans. A collector that is down must not fail the shutdown, so errors are swallowed. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
}

/** startTracing (or `start`, e.g. startTracingAs) for an entry point: a bad setting ends the process with the one-line message every start-up error gets. */
export function startTracingOrExit(serviceName: string, start = startTracing): void {
  try {
    start(serviceName);
  } catch (error) {
    process.stderr.write(`start-up failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
