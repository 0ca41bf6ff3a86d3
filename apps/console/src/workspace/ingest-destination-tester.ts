import { randomUUID } from 'node:crypto';
import { destinationKey, Workspace } from '@switchyard/config';
import { ConsoleViews } from '../console-views';
import { DestinationTester, DestinationTestReport } from '../web/destination-tester';
import { workspaceError } from './workspace-errors';

/** How long a test event is waited for: its first attempt, over every URL it tries, fits well inside. */
const WAIT_MS = 30_000;
const POLL_MS = 100;
/** Outcomes that end an attempt: after them no more URLs are tried for it. */
const FINAL = new Set(['delivered', 'retry-scheduled', 'dead-lettered', 'filtered']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a sample track call through the real pipeline, as an SDK would: to ingest, with the write
 * key of a source the destination is connected to, and with `integrations` naming this destination
 * alone, so no other destination receives it. Then reads the attempts delivery records for it.
 */
export class IngestDestinationTester extends DestinationTester {
  constructor(
    private readonly ingestUrl: string,
    private readonly workspace: Workspace,
    private readonly views: ConsoleViews,
  ) {
    super();
  }

  async test(destinationId: string): Promise<DestinationTestReport> {
    const destination = this.workspace.destination(destinationId);
    if (!destination) throw workspaceError(404, 'not_found', `no destination "${destinationId}"`);
    const source = destination.sources.map((id) => this.workspace.source(id)).find((s) => s !== undefined);
    if (!source)
      throw workspaceError(
        409,
        'conflict',
        `destination "${destinationId}" is connected to no source to send from`,
      );
    const messageId = `test-${randomUUID()}`;
    const answer = await fetch(new URL('/v1/track', this.ingestUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${source.writeKey}:`).toString('base64')}`,
      },
      body: JSON.stringify({
        messageId,
        userId: 'switchyard-test-user',
        event: 'Switchyard Test Event',
        properties: { sentFrom: 'the Switchyard console' },
        integrations: { All: false, [destinationKey(destination)]: true },
      }),
    }).catch((error: Error) => {
      throw workspaceError(
        503,
        'unavailable',
        `ingest at ${this.ingestUrl} cannot be reached: ${error.message}`,
      );
    });
    if (!answer.ok)
      throw workspaceError(
        503,
        'unavailable',
        `ingest answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`,
      );
    return { results: await this.attemptsOf(messageId, destinationId) };
  }

  private async attemptsOf(
    messageId: string,
    destinationId: string,
  ): Promise<DestinationTestReport['results']> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const attempts = this.views
        .messages({ messageId })
        .flatMap((m) => m.attempts)
        .filter((a) => a.destinationId === destinationId && a.attempt <= 1);
      if (attempts.some((a) => FINAL.has(a.outcome)) || Date.now() > deadline) {
        return attempts.map((a) => ({
          url: a.urlIndex === undefined ? '(no URL tried)' : `#${a.urlIndex + 1} ${a.urlHost ?? ''}`,
          status: a.status,
          durationMs: a.durationMs,
          bodyStart: a.responseBody,
          error: a.error ?? (a.filter ? `filtered by rule "${a.filter.rule}"` : undefined),
        }));
      }
      await sleep(POLL_MS);
    }
  }
}
