import './instrument';
import 'reflect-metadata';
import { exitOnStartupError } from '@switchyard/service';
import { createSharedLogger } from '@switchyard/telemetry';
import { planServices, startServices } from './all-in-one';

/*
 * Any set of the services in one process, chosen by SWITCHYARD_SERVICES: for small deployments and
 * a single container beside Kafka. Each service is the same code its own main.ts runs.
 */
const logger = createSharedLogger(process.env.LOG_LEVEL);
Promise.resolve()
  .then(() => startServices(planServices(process.env), logger))
  .then((running) => {
    for (const { name, app } of running)
      logger.info({ service: name, url: app.getHttpServer().address() }, `${name} listening`);
  })
  .catch(exitOnStartupError(logger.child({ service: 'switchyard' })));
