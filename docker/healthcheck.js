// Container health check for Docker and compose (Kubernetes uses httpGet probes instead).
// Usage: node healthcheck.js [/health/ready|/health/live]
// Port: $PORT, else the default port of $SWITCHYARD_SERVICE. Exit 0 when the answer is 2xx.
'use strict';
const DEFAULT_PORTS = { ingest: 8080, router: 8081, delivery: 8082, console: 8083 };
const path = process.argv[2] || '/health/ready';
const port = Number(process.env.PORT) || DEFAULT_PORTS[process.env.SWITCHYARD_SERVICE] || 8080;
fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
