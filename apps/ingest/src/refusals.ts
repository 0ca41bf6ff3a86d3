import type { ErrorAnswerListener } from '@switchyard/service';
import { ingestMetrics } from './ingest-metrics';

const { rejected } = ingestMetrics();

/** Probes and scrapes are not client requests; a not-ready probe answering 503 is no refusal. */
const OPERATIONAL_PATHS = /^\/(health|metrics)(\/|$|\?)/;

/**
 * Counts every error answer by its `error` code, wherever it was decided: the body parser (400,
 * 413, 415), the router (404 for unknown paths), the origin check (403) or the controller.
 */
export const countRefusal: ErrorAnswerListener = (request, _status, error) => {
  if (!OPERATIONAL_PATHS.test(request.url)) rejected.inc({ reason: error });
};
