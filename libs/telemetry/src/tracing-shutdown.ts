import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Flushes buffered spans when the service shuts down (Nest re-raises the signal afterwards, so no 'beforeExit'). */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
