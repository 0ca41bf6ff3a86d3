import { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { PipelineProcesses } from './pipeline-processes';
import { freePort, ServiceProcess } from './service-process';

/**
 * The whole system with its console, for tests that drive the console in a real browser: ingest,
 * router and delivery on `env`, the console on `env` plus `consoleEnv` (pointed at this ingest and
 * delivery), and a page of its own in headless Chromium.
 */
export class ConsoleInBrowser {
  private constructor(
    readonly pipeline: PipelineProcesses,
    readonly console: ServiceProcess,
    private readonly browser: Awaited<ReturnType<typeof launchChromium>>,
    readonly page: Page,
  ) {}

  static async start(env: NodeJS.ProcessEnv, consoleEnv: NodeJS.ProcessEnv = {}): Promise<ConsoleInBrowser> {
    const pipeline = await PipelineProcesses.start(env);
    let consoleProcess: ServiceProcess | undefined;
    try {
      consoleProcess = await ServiceProcess.start('console', await freePort(), {
        ...env,
        ...consoleEnv,
        CONSOLE_INGEST_URL: pipeline.ingest.url,
        CONSOLE_DELIVERY_URL: pipeline.services.delivery.url,
      });
      const browser = await launchChromium();
      // A page of our own: the persistent context's first tab may still be loading its start page,
      // and on a loaded machine that navigation aborted the test's first one (net::ERR_ABORTED).
      const page = await browser.context.newPage();
      // A page load waits for the whole pipeline's process on a loaded machine: time enough for that.
      page.setDefaultTimeout(60_000);
      return new ConsoleInBrowser(pipeline, consoleProcess, browser, page);
    } catch (error) {
      await Promise.all([pipeline.stop(), consoleProcess?.stop()]);
      throw error;
    }
  }

  get context(): BrowserContext {
    return this.browser.context;
  }

  get consoleUrl(): string {
    return this.console.url;
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await Promise.all([this.pipeline.stop(), this.console.stop()]);
  }
}
