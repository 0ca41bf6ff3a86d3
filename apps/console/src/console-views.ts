import { Inject, Injectable } from '@nestjs/common';
import { Workspace } from '@switchyard/config';
import { DeadLetter } from '@switchyard/contracts';
import { AttemptFilter, IndexedAttempt, MessageTimeline } from './index/attempt-index';
import { SampledCall } from './index/call-sample';
import { DestinationHealth, destinationHealth, HEALTH_WINDOW } from './index/destination-health';
import { INDEXES } from './console.tokens';
import type { ConsoleIndexes } from './index/console-indexes';

export interface DestinationSummary {
  id: string;
  /** Absent for a destination that has attempts but is no longer configured. */
  name?: string;
  enabled?: boolean;
  health: DestinationHealth;
}

/** A dead letter, the attempt that dead-lettered it (its status and body), and the job's latest attempt (a replay's, if any). */
export interface DeadLetterView {
  deadLetter: DeadLetter;
  deadAttempt?: IndexedAttempt;
  latest?: IndexedAttempt;
}

export interface MessageQuery {
  messageId?: string;
  userId?: string;
}

/** Messages listed for one user at most. */
const MESSAGES_PER_USER = 50;

/** What the API and the pages show, read from the index and the workspace: one place for both. */
@Injectable()
export class ConsoleViews {
  constructor(
    @Inject(INDEXES) private readonly indexes: ConsoleIndexes,
    private readonly workspace: Workspace,
  ) {}

  /** Configured destinations, then any others that have attempts. */
  destinations(): DestinationSummary[] {
    const configured = this.workspace.config.destinations.map((d) => d.id);
    const ids = [
      ...configured,
      ...this.indexes.attempts.destinationIds().filter((id) => !configured.includes(id)),
    ];
    return ids.map((id) => this.destination(id));
  }

  destination(id: string): DestinationSummary {
    const configured = this.workspace.destination(id);
    return {
      id,
      name: configured ? (configured.name ?? configured.type) : undefined,
      enabled: configured?.enabled,
      health: destinationHealth(this.indexes.attempts.attemptsOf(id, {}, HEALTH_WINDOW)),
    };
  }

  isKnownDestination(id: string): boolean {
    return (
      this.workspace.destination(id) !== undefined || this.indexes.attempts.destinationIds().includes(id)
    );
  }

  attempts(destinationId: string, filter: AttemptFilter, limit: number): IndexedAttempt[] {
    return this.indexes.attempts.attemptsOf(destinationId, filter, limit);
  }

  messages(query: MessageQuery): MessageTimeline[] {
    if (query.messageId !== undefined) return this.indexes.attempts.message(query.messageId);
    if (query.userId !== undefined)
      return this.indexes.attempts.messagesOfUser(query.userId, MESSAGES_PER_USER);
    return [];
  }

  deadLetters(destinationId: string | undefined, limit: number): DeadLetterView[] {
    return this.indexes.deadLetters.latest(destinationId, limit).map((deadLetter) => {
      const { messageId, destinationId: destination } = deadLetter;
      const job = messageId && destination ? this.indexes.attempts.jobAttempts(messageId, destination) : [];
      const deadAt = deadLetter.deadAt ? Date.parse(deadLetter.deadAt) : Infinity;
      const deadAttempt = job.filter((a) => a.outcome === 'dead-lettered' && a.atMs <= deadAt).at(-1);
      return { deadLetter, deadAttempt, latest: job.at(-1) };
    });
  }

  sources(): Array<{ id: string; name: string }> {
    return this.workspace.config.sources.map((s) => ({ id: s.id, name: s.name }));
  }

  isKnownSource(id: string): boolean {
    return this.workspace.source(id) !== undefined;
  }

  calls(sourceId: string, limit: number): SampledCall[] {
    return this.indexes.calls.latest(sourceId, limit);
  }

  index() {
    const { attempts, deadLetters, calls } = this.indexes;
    return {
      attempts: { held: attempts.size, limit: attempts.limit, evicted: attempts.evicted },
      deadLetters: { held: deadLetters.size, limit: deadLetters.limit, evicted: deadLetters.evicted },
      calls: { held: calls.size, perSource: calls.perSource, evicted: calls.evicted },
    };
  }
}
