import type { NodeSDK } from '@opentelemetry/sdk-node';
import { markTracingOn } from './tracing-state';

let sdk: NodeSDK | undefined;

/** Tracing is on when an OTLP endpoint is configured by the standard variables, and not disabled. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED ?? '')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry SDK (OTLP over HTTP, configured by the standard `OTEL_*` variables).
 * Must run before Nest, Fastify, kafkajs and undici are loaded, so each service's main.ts
 * imports its `instrument.ts` first. Without an endpoint it does nothing, and the SDK is not
 * even loaded (it costs tens of MB of memory).
 *
 * Kafka hops are traced by hand (see kafka-trace.ts) rather than by the kafkajs
 * instrumentation: ingest batches the records of many requests into one produce call, and an
 * instrumentation that stamps the batch's context on every record would join unrelated traces.
 */
export function startTracing(serviceName: string): void {
  if (sdk || !tracingEnabled()) return;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? `switchyard-${serviceName}`,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(health|metrics)/.test(req.url ?? '') }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  markTracingOn();
}

/** Sends buffered spans. A collector that is down must not fail the shutdown, so errors are swallowed. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
}
