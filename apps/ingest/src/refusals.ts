import type { ErrorAnswerListener } from '@switchyard/service';
import { Counter, metric } from '@switchyard/telemetry';

const rejected = metric('switchyard_ingest_requests_rejected_total', () =>
  new Counter({ name: 'switchyard_ingest_requests_rejected_total', help: 'Requests refused (4xx/5xx answers), by reason', labelNames: ['reason'] }),
);

/** Probes and scrapes are not client requests; a not-ready probe answering 503 is no refusal. */
const OPERATIONAL_PATHS = /^\/(health|metrics)(\/|$|\?)/;

/**
 * Counts every error answer by its `error` code, wherever it was decided: the body parser (400,
 * 413, 415), the router (404 for unknown paths), the origin check (403) or the controller.
 */
export const countRefusal: ErrorAnswerListener = (request, _status, error) => {
  if (!OPERATIONAL_PATHS.test(request.url)) rejected.inc({ reason: error });
};
