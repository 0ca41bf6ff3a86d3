// Imported first by main.ts: tracing must be set up before the modules it instruments load.
import { startTracingOrExit } from '@switchyard/telemetry/tracing';

startTracingOrExit('ingest');
