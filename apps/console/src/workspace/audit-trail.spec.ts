import type { WorkspaceAuditRecord } from '@switchyard/contracts';
import { AuditTrail } from './audit-trail';

const record = (
  id: string,
  at: string,
  kind: 'source' | 'destination' = 'destination',
): WorkspaceAuditRecord => ({
  at,
  actor: 'ops',
  action: 'update',
  kind,
  id,
  revision: 1,
});

describe('AuditTrail', () => {
  const trail = new AuditTrail(3);
  for (const [id, at] of [
    ['a', '2026-01-01T00:00:00Z'],
    ['b', '2026-01-02T00:00:00Z'],
    ['a', '2026-01-03T00:00:00Z'],
    ['c', '2026-01-04T00:00:00Z'],
  ])
    trail.add(record(id, at));

  it('keeps the newest records, newest first', () => {
    expect(trail.list({ limit: 10 }).map((r) => r.at)).toEqual([
      '2026-01-04T00:00:00Z',
      '2026-01-03T00:00:00Z',
      '2026-01-02T00:00:00Z',
    ]);
  });

  it('filters by resource and time, and stops at the limit', () => {
    expect(trail.list({ id: 'a', limit: 10 }).map((r) => r.at)).toEqual(['2026-01-03T00:00:00Z']);
    expect(trail.list({ kind: 'source', limit: 10 })).toEqual([]);
    expect(
      trail.list({ from: '2026-01-02T12:00:00Z', to: '2026-01-03T12:00:00Z', limit: 10 }).map((r) => r.id),
    ).toEqual(['a']);
    expect(trail.list({ limit: 1 }).map((r) => r.id)).toEqual(['c']);
  });
});
