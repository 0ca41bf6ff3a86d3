/** A named check that says whether the service can do its work now (Kafka connected, config loaded, …). */
export type ReadinessCheck = () => boolean;

/** Collects the readiness checks of a service's parts; `/health/ready` reports them. */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private readonly peers = new Map<string, () => Readiness | undefined>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /**
   * Makes this service ready only while `peer`, a service of the same process, is ready too:
   * a process that runs several services is one unit to its probes. Reported as one check named
   * `name`, from the peer's own checks (not its peers', so two services can follow each other).
   * `peer` gives undefined while that service has not started yet: not ready.
   */
  follow(name: string, peer: () => Readiness | undefined): void {
    this.peers.set(name, peer);
  }

  report(): { ready: boolean; checks: Record<string, boolean> } {
    const checks = this.ownChecks();
    for (const [name, peer] of this.peers) {
      const started = peer();
      checks[name] = started !== undefined && Object.values(started.ownChecks()).every(Boolean);
    }
    return { ready: Object.values(checks).every(Boolean), checks };
  }

  private ownChecks(): Record<string, boolean> {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of this.checks) checks[name] = safe(check);
    return checks;
  }
}

function safe(check: ReadinessCheck): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
