// Container health check for Docker and compose (Kubernetes uses httpGet probes instead).
// Usage: node healthcheck.js [/health/ready|/health/live]
// Port: $PORT, else the default port of $SWITCHYARD_SERVICE. The all-in-one process
// ($SWITCHYARD_SERVICES) is asked on its first service's port (e.g. $INGEST_PORT), whose readiness
// covers every service of the process. Exit 0 when the answer is 2xx.
'use strict';
const DEFAULT_PORTS = { ingest: 8080, router: 8081, delivery: 8082, console: 8083 };
const path = process.argv[2] || '/health/ready';
const first = (process.env.SWITCHYARD_SERVICES || '').split(',')[0].trim();
const port = first
  ? Number(process.env[`${first.toUpperCase()}_PORT`]) || DEFAULT_PORTS[first] || 8080
  : Number(process.env.PORT) || DEFAULT_PORTS[process.env.SWITCHYARD_SERVICE] || 8080;
fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
