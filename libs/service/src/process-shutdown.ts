import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

interface OpenApp {
  app: INestApplication;
  logger: Logger;
}

/** The apps this process serves, in the order they started: one service, or several in one process. */
const open: OpenApp[] = [];
let closing = false;

/**
 * SIGTERM/SIGINT close the process's apps one after another in the order they started (ingest
 * first, so it stops taking calls before the services downstream stop), each running its
 * modules' shutdown hooks (consumers stop fetching, finish in-flight work and commit); then the
 * process exits 0. Nest's own shutdown hooks would re-raise the signal and exit 143, which
 * Kubernetes and compose report as a failure, and each app exiting on its own would cut the
 * others' shutdown short.
 */
export function closeOnSignals(app: INestApplication, logger: Logger): void {
  if (open.length === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  const entry = { app, logger };
  open.push(entry);
  app.getHttpServer().once('close', () => {
    open.splice(open.indexOf(entry), 1);
    if (open.length === 0 && !closing) for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  });
}

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  for (const { app, logger } of [...open]) {
    logger.info({ signal }, 'shutting down');
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  }
  process.exit(0);
}
