import type { WorkspaceAuditRecord, WorkspaceKind } from '@switchyard/contracts';

export interface AuditFilter {
  kind?: WorkspaceKind;
  id?: string;
  /** ISO 8601 bounds on `at`, inclusive. */
  from?: string;
  to?: string;
  limit: number;
}

/**
 * The audit topic as the console holds it: the newest `capacity` changes in memory, read from
 * the topic (which keeps them far longer) at start. Listed newest first.
 */
export class AuditTrail {
  private readonly records: WorkspaceAuditRecord[] = [];

  constructor(private readonly capacity: number) {}

  add(record: WorkspaceAuditRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
  }

  list(filter: AuditFilter): WorkspaceAuditRecord[] {
    const found: WorkspaceAuditRecord[] = [];
    for (let i = this.records.length - 1; i >= 0 && found.length < filter.limit; i--) {
      const r = this.records[i];
      if (filter.kind && r.kind !== filter.kind) continue;
      if (filter.id && r.id !== filter.id) continue;
      if (filter.from && r.at < filter.from) continue;
      if (filter.to && r.at > filter.to) continue;
      found.push(r);
    }
    return found;
  }
}
