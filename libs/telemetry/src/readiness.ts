/** A named check that says whether the service can do its work now (Kafka connected, config loaded, …). */
export type ReadinessCheck = () => boolean;

/** Collects the readiness checks of a service's parts; `/health/ready` reports them. */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  report(): { ready: boolean; checks: Record<string, boolean> } {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of this.checks) checks[name] = safe(check);
    return { ready: Object.values(checks).every(Boolean), checks };
  }
}

function safe(check: ReadinessCheck): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
