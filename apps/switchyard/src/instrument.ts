// Imported first by main.ts: tracing must be set up before the modules it instruments load. One SDK
// serves every service of the process, which reports as one OpenTelemetry service, `switchyard`.
import { startTracingAs, startTracingOrExit } from '@switchyard/telemetry/tracing';

startTracingOrExit('switchyard', startTracingAs);
