import type { RateLimit } from '@switchyard/config';
import { Clock } from '../clock';

/** How long a 429 without `Retry-After` stops a destination. */
export const DEFAULT_SLOW_DOWN_MS = 1000;
/** A slowed destination's rate climbs back to its limit linearly over this long. */
const RECOVERY_MS = 30_000;
/** A slowed destination keeps at least this fraction of its limit. */
const MIN_FACTOR = 1 / 16;
/** Answers that arrive together (requests sent at once) halve the rate once, not once each. */
const HALVING_INTERVAL_MS = 1000;

/** When a job may be sent: after `waitMs` in memory, or from a retry topic at `untilMs`. */
export type Admission =
  | { kind: 'go'; waitMs: number }
  /** `reserved`: the send slot at `untilMs` is the job's; false when the wait was cut to `maxDeferMs` and it must ask again. */
  | { kind: 'defer'; untilMs: number; reserved: boolean };

export interface RateGateOptions {
  /** Longest wait a job spends in memory; a longer one goes to a retry topic, so memory stays bounded. */
  maxWaitInMemoryMs: number;
  /** Longest wait in a retry topic (the longest tier), so a throttled job never holds up a tier's other jobs for long. */
  maxDeferMs: number;
}

interface Destination {
  /** Theoretical arrival time (GCRA): when the next request would be sent at the steady rate. */
  tat: number;
  /** The same, over the moments requests actually left (see `sendWait`). */
  sentTat: number;
  pausedUntil: number;
  /** The fraction of its limit the destination gets after a slow-down, and when that was. */
  factor: number;
  slowedAt: number;
}

/**
 * Paces the requests to each destination: its `settings.rateLimit`, and a slow-down when it
 * answers 429 or `Retry-After`. The limit is held across delivery instances by giving each
 * instance `share` of it: the fraction of the delivery group's partitions it owns, recomputed at
 * every rebalance. The shares of a group's members add up to 1, so N instances never send more
 * than the limit together; a destination's jobs spread over every partition (keys carry the
 * user), so each instance gets about its share of them.
 *
 * Each admitted job reserves its send slot (the generic cell rate algorithm): jobs never race for
 * a token, and a burst of `burst` goes at once after a quiet spell. Slots are plans: a job may
 * reach its slot late (a busy event loop's timers, a wait for the destination's concurrency, a
 * retry topic fetched after its due time), and late jobs would leave together. So the moment a
 * request leaves is checked against the limit as well (`sendWait`), which keeps the requests of
 * any second within the limit plus the burst.
 */
export class RateGate {
  private share = 1;
  private readonly destinations = new Map<string, Destination>();

  constructor(
    private readonly clock: Clock,
    private readonly options: RateGateOptions,
  ) {}

  /** This instance's part of every limit, in (0, 1]; 0 (no partitions) is kept as the last share, since no job comes. */
  setShare(share: number): void {
    if (share > 0) this.share = Math.min(1, share);
  }

  get currentShare(): number {
    return this.share;
  }

  /** Reserves a send slot for a job of `destinationId`. `reservedAt`: the slot it already holds (a job back from waiting). */
  admit(destinationId: string, limit: RateLimit | undefined, reservedAt?: number): Admission {
    const now = this.clock.now();
    const state = this.destinations.get(destinationId);
    const start = Math.max(now, state?.pausedUntil ?? 0);
    if (reservedAt !== undefined || !limit) return this.admitAt(now, start, reservedAt !== undefined);
    const d = state ?? this.track(destinationId, now);
    const { interval, tolerance } = this.pace(d, limit, now);
    // After a pause the destination starts again at its steady rate, not with a burst.
    const tat = Math.max(d.tat, start > now ? start + tolerance : start);
    const slot = Math.max(start, tat - tolerance);
    if (slot - now > this.options.maxDeferMs) return this.askAgainLater(now);
    d.tat = tat + interval;
    return this.admitAt(now, slot, true);
  }

  /**
   * Milliseconds until a request to the destination may leave within its limit, counted over the
   * requests that did leave; 0 takes that moment, so call it right before sending and again after
   * waiting.
   */
  sendWait(destinationId: string, limit: RateLimit | undefined): number {
    if (!limit) return 0;
    const now = this.clock.now();
    const d = this.destinations.get(destinationId) ?? this.track(destinationId, now);
    const { interval, tolerance } = this.pace(d, limit, now);
    const tat = Math.max(d.sentTat, now);
    const wait = tat - tolerance - now;
    if (wait > 0) return wait;
    d.sentTat = tat + interval;
    return 0;
  }

  /** The destination answered 429 or asked to wait: nothing is sent for `retryAfterMs` (default 1 s), and its limit halves, then recovers. */
  slowDown(destinationId: string, retryAfterMs: number | undefined): void {
    const now = this.clock.now();
    const d = this.destinations.get(destinationId) ?? this.track(destinationId, now);
    d.pausedUntil = Math.max(d.pausedUntil, now + (retryAfterMs ?? DEFAULT_SLOW_DOWN_MS));
    if (now - d.slowedAt < HALVING_INTERVAL_MS) return;
    d.factor = Math.max(MIN_FACTOR, this.factor(d, now) / 2);
    d.slowedAt = now;
  }

  /** The gap between requests at this instance's share of the limit, and how far a burst may run ahead. */
  private pace(d: Destination, limit: RateLimit, now: number): { interval: number; tolerance: number } {
    const interval = 1000 / (limit.perSecond * this.share * this.factor(d, now));
    const burst = Math.max(1, (limit.burst ?? Math.max(1, Math.ceil(limit.perSecond))) * this.share);
    return { interval, tolerance: (burst - 1) * interval };
  }

  /** The destination's current fraction of its limit (1 unless slowed down lately). */
  private factor(d: Destination, now: number): number {
    return Math.min(1, d.factor + (now - d.slowedAt) / RECOVERY_MS);
  }

  private admitAt(now: number, slot: number, reserved: boolean): Admission {
    const waitMs = Math.max(0, slot - now);
    if (waitMs <= this.options.maxWaitInMemoryMs) return { kind: 'go', waitMs };
    if (waitMs > this.options.maxDeferMs) return this.askAgainLater(now);
    return { kind: 'defer', untilMs: slot, reserved };
  }

  /** A wait longer than the longest tier: no slot is held, the job asks again when that tier's wait is over. */
  private askAgainLater(now: number): Admission {
    return { kind: 'defer', untilMs: now + this.options.maxDeferMs, reserved: false };
  }

  private track(destinationId: string, now: number): Destination {
    const d = { tat: now, sentTat: now, pausedUntil: 0, factor: 1, slowedAt: -Infinity };
    this.destinations.set(destinationId, d);
    return d;
  }
}
