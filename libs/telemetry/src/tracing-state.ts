/** Whether this process started the OpenTelemetry SDK; set once by startTracing. */
let tracingOn = false;

export function markTracingOn(): void {
  tracingOn = true;
}

export function isTracingOn(): boolean {
  return tracingOn;
}
