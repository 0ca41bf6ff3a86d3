import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

let sdk: NodeSDK | undefined;

/** Tracing is on when an OTLP endpoint is configured by the standard variables, and not disabled. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED ?? '')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry SDK (OTLP over HTTP, configured by the standard `OTEL_*` variables).
 * Must run before Nest, Fastify, kafkajs and undici are loaded, so each service's main.ts
 * imports its `instrument.ts` first. Without an endpoint it does nothing: no exporter retrying
 * against a collector that is not there.
 *
 * Kafka hops are traced by hand (see kafka-trace.ts) rather than by the kafkajs
 * instrumentation: ingest batches the records of many requests into one produce call, and an
 * instrumentation that stamps the batch's context on every record would join unrelated traces.
 */
export function startTracing(serviceName: string): void {
  if (sdk || !tracingEnabled()) return;
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? `switchyard-${serviceName}`,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(health|metrics)/.test(req.url ?? '') }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
}

/** Sends buffered spans; services call it last in their shutdown. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
