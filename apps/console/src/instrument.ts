// Imported first by main.ts: tracing must be set up before the modules it instruments load.
import { startTracing } from '@switchyard/telemetry/tracing';

startTracing('console');
