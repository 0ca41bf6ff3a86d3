import { Clock } from '../clock';

/** closed: requests flow; open: failing fast; half-open: the open period is over and the next request (or the one in flight) probes. */
export type CircuitState = 'closed' | 'open' | 'half-open';

interface Circuit {
  consecutiveFailures: number;
  lastFailure: string;
  openUntil: number;
  /** A half-open circuit lets one probe through; others keep failing fast until it answers. */
  probing: boolean;
}

/**
 * One circuit per webhook URL. After `failureThreshold` consecutive retryable failures the URL
 * fails fast for `openMs` (the job goes to its retry topic at once instead of holding a request
 * slot for the whole timeout); then one probe request decides whether it closes again.
 */
export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();

  constructor(
    private readonly failureThreshold: number,
    private readonly openMs: number,
    private readonly clock: Clock,
  ) {}

  /** True when a request to `url` may be sent now. A true answer on a half-open circuit claims its one probe. */
  allow(url: string): boolean {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.consecutiveFailures < this.failureThreshold) return true;
    if (this.clock.now() < circuit.openUntil || circuit.probing) return false;
    circuit.probing = true;
    return true;
  }

  /** Any answer that is not a retryable failure closes the circuit: the endpoint is up, even if it refuses this job. */
  recordSuccess(url: string): void {
    this.circuits.delete(url);
  }

  recordFailure(url: string, reason: string): void {
    const circuit = this.circuits.get(url) ?? {
      consecutiveFailures: 0,
      lastFailure: '',
      openUntil: 0,
      probing: false,
    };
    circuit.consecutiveFailures += 1;
    circuit.lastFailure = reason;
    circuit.probing = false;
    if (circuit.consecutiveFailures >= this.failureThreshold)
      circuit.openUntil = this.clock.now() + this.openMs;
    this.circuits.set(url, circuit);
  }

  state(url: string): CircuitState {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.consecutiveFailures < this.failureThreshold) return 'closed';
    return this.clock.now() < circuit.openUntil ? 'open' : 'half-open';
  }

  /** Why the circuit of `url` is open, for the job's last error; undefined when it is closed. */
  openReason(url: string): string | undefined {
    const circuit = this.circuits.get(url);
    if (!circuit || circuit.consecutiveFailures < this.failureThreshold) return undefined;
    return `circuit open after ${circuit.consecutiveFailures} consecutive failures (last: ${circuit.lastFailure})`;
  }
}
