import { HttpException } from '@nestjs/common';

/** What to replay, as delivery's `POST /dead-letters/replay` takes it. */
export interface ReplayFilter {
  /** A dead letter's `<partition>:<offset>`. */
  id?: string;
  messageId?: string;
  destinationId?: string;
  /** ISO 8601: dead-lettered at or after / before. */
  from?: string;
  to?: string;
}

export interface ReplayResult {
  replayed: number;
  ids: string[];
}

/** Delivery reads the whole dead-letter topic for a replay (see its DeadLetterStore); this bounds the wait. */
const REPLAY_TIMEOUT_MS = 90_000;

/**
 * Replays through delivery's own endpoint: one implementation of replay (find the dead records,
 * write them back as fresh jobs, count them), which the console does not copy.
 */
export class DeliveryReplay {
  constructor(
    private readonly deliveryUrl: string,
    private readonly adminToken: string | undefined,
  ) {}

  async replay(filter: ReplayFilter): Promise<ReplayResult> {
    let response: Response;
    try {
      response = await fetch(new URL('/dead-letters/replay', this.deliveryUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${this.adminToken ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify(filter),
        signal: AbortSignal.timeout(REPLAY_TIMEOUT_MS),
      });
    } catch (error) {
      throw new HttpException(
        {
          success: false,
          error: 'unavailable',
          message: `delivery at ${this.deliveryUrl} did not answer the replay: ${(error as Error).message}`,
        },
        502,
      );
    }
    const body = (await response.json().catch(() => ({}))) as Partial<ReplayResult> & { message?: string };
    if (!response.ok) {
      const status = response.status >= 500 || response.status === 401 ? 502 : response.status;
      throw new HttpException(
        {
          success: false,
          error: status === 502 ? 'unavailable' : 'bad_request',
          message: `delivery refused the replay (HTTP ${response.status}): ${body.message ?? 'no reason given'}`,
        },
        status,
      );
    }
    return { replayed: body.replayed ?? 0, ids: body.ids ?? [] };
  }
}
