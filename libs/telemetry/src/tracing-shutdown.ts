import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Services of this process not shut down yet: they share one SDK. */
let openServices = 0;

/**
 * Flushes buffered spans when the last service of the process shuts down: a process that runs
 * several services stops them one by one, and the later ones still trace their final work.
 * (Nest re-raises the signal afterwards, so no 'beforeExit'.)
 */
@Injectable()
export class TracingShutdown implements OnModuleInit, OnApplicationShutdown {
  onModuleInit(): void {
    openServices += 1;
  }

  async onApplicationShutdown(): Promise<void> {
    openServices -= 1;
    if (openServices === 0) await stopTracing();
  }
}
