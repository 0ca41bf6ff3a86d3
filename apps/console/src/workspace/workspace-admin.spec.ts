import { randomBytes } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { WorkspaceAuditRecord } from '@switchyard/contracts';
import { SecretCipher, WorkspaceState } from '@switchyard/workspace';
import { etagMatches, mergePatch, WorkspaceAdmin, WorkspaceChange, WorkspaceLog } from './workspace-admin';

const admin = { name: 'ops', role: 'admin' as const };
const viewer = { name: 'support', role: 'viewer' as const };
const cipher = SecretCipher.fromSetting(`k1:${randomBytes(32).toString('base64')}`);

/** A log that applies each change to the state at once, as the topic's reader would; it can be made to fail. */
class AppliedLog implements WorkspaceLog {
  readonly written: WorkspaceChange[] = [];
  failing = false;
  unreadable = false;
  /** Reading never reaches the end (a consumer that cannot fetch). */
  stalled = false;
  constructor(private readonly state: WorkspaceState) {}
  async append(change: WorkspaceChange) {
    if (this.failing) throw new Error('broker unreachable');
    this.written.push(change);
    this.state.apply(change.key, change.value);
  }
  async caughtUp() {
    if (this.unreadable) throw new Error('broker unreachable');
    if (this.stalled) await new Promise<never>(() => undefined);
  }
  get audit(): WorkspaceAuditRecord[] {
    return this.written.map((c) => c.audit);
  }
}

const destination = {
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: ['web'],
  settings: {
    sharedSecret: 'shared-secret-0001',
    webhooks: [{ url: 'https://a.example/hook', headers: { Authorization: 'Bearer token-0123456789' } }],
  },
};

function setup() {
  const state = new WorkspaceState(cipher);
  const log = new AppliedLog(state);
  return { state, log, api: new WorkspaceAdmin(state, log, cipher, () => new Date('2026-01-02T03:04:05Z')) };
}

async function statusOf(promise: Promise<unknown> | (() => unknown)): Promise<[number, unknown]> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    if (error instanceof HttpException) return [error.getStatus(), error.getResponse()];
    throw error;
  }
  return [200, undefined];
}

describe('WorkspaceAdmin', () => {
  it('creates a source with a generated write key of at least 128 random bits, shown to admins only', async () => {
    const { api } = setup();
    const created = await api.createSource({ id: 'web', name: 'Website' }, admin);
    expect(created.revision).toBe(1);
    expect(created.resource.writeKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect(api.getSource('web', viewer).resource.writeKey).toMatch(/^••••/);
  });

  it('stores secrets sealed, answers them masked, and audits who changed what without secrets', async () => {
    const { api, log } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    const created = await api.createDestination(destination, admin);
    const raw = log.written.map((c) => c.value?.toString() ?? '').join('');
    const answered = JSON.stringify(created);
    const audited = JSON.stringify(log.audit);
    for (const secret of ['shared-secret-0001', 'token-0123456789']) {
      expect(raw).not.toContain(secret);
      expect(answered).not.toContain(secret);
      expect(audited).not.toContain(secret);
    }
    expect(log.audit[1]).toMatchObject({
      actor: 'ops',
      action: 'create',
      kind: 'destination',
      id: 'hooks',
      revision: 1,
    });
  });

  it('keeps a secret sent back masked, and applies a merge patch', async () => {
    const { api, state } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    const created = await api.createDestination(destination, admin);
    const replaced = await api.changeDestination(
      'hooks',
      { ...created.resource, enabled: false },
      '"1"',
      false,
      admin,
    );
    expect(replaced.revision).toBe(2);
    expect(state.destination('hooks')!.resource.settings.sharedSecret).toBe('shared-secret-0001');
    await api.changeDestination('hooks', { settings: { sharedSecret: null } }, undefined, true, admin);
    expect(state.destination('hooks')!.resource.settings.sharedSecret).toBeUndefined();
    expect(state.destination('hooks')!.resource.settings.webhooks[0].headers).toEqual({
      Authorization: 'Bearer token-0123456789',
    });
  });

  it('answers 400 listing every problem, 404, 409 and 412, and writes nothing for any of them', async () => {
    const { api, log } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    const before = log.written.length;
    const [status, body] = await statusOf(
      api.createDestination({ ...destination, sources: ['nope'], colour: 'red' }, admin),
    );
    expect(status).toBe(400);
    expect((body as { problems: string[] }).problems).toEqual([
      'colour: unknown field',
      'sources: unknown source "nope"',
    ]);
    const [status2, body2] = await statusOf(
      api.createDestination({ ...destination, sources: ['nope'] }, admin),
    );
    expect([status2, (body2 as { problems: string[] }).problems]).toEqual([
      400,
      ['sources: unknown source "nope"'],
    ]);
    expect((await statusOf(() => api.getDestination('hooks')))[0]).toBe(404);
    expect((await statusOf(api.createSource({ id: 'web', name: 'Again' }, admin)))[0]).toBe(409);
    expect((await statusOf(api.changeSource('web', { name: 'X' }, '"7"', true, admin)))[0]).toBe(412);
    expect(log.written.length).toBe(before);
  });

  it('answers 503 when the topic cannot be written, and keeps the previous state', async () => {
    const { api, log, state } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    log.failing = true;
    expect((await statusOf(api.changeSource('web', { name: 'Renamed' }, undefined, true, admin)))[0]).toBe(
      503,
    );
    expect(state.source('web')!.resource.name).toBe('Website');
  });

  it('answers 503 when the topic cannot be read to its end before a write, and writes nothing', async () => {
    const { api, log, state } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    log.unreadable = true;
    expect((await statusOf(api.changeSource('web', { name: 'Renamed' }, undefined, true, admin)))[0]).toBe(
      503,
    );
    expect(log.written.length).toBe(1);
    expect(state.source('web')!.resource.name).toBe('Website');
  });

  it('answers 503 naming the wait when its copy of the topic does not reach the end, and takes the next write', async () => {
    const state = new WorkspaceState(cipher);
    const log = new AppliedLog(state);
    const api = new WorkspaceAdmin(state, log, cipher, () => new Date(), 20);
    log.stalled = true;
    const [status, body] = await statusOf(api.createSource({ id: 'web', name: 'Website' }, admin));
    expect(status).toBe(503);
    expect(body).toMatchObject({
      message: expect.stringMatching(/could not be read to its end within 20 ms/),
    });
    expect(log.written).toEqual([]);
    log.stalled = false;
    expect((await statusOf(api.createSource({ id: 'web', name: 'Website' }, admin)))[0]).toBe(200);
  });

  it('rotates a write key: both keys are accepted until the old one is retired', async () => {
    const { api, state } = setup();
    const created = await api.createSource(
      { id: 'web', name: 'Website', writeKey: 'old-write-key-1' },
      admin,
    );
    await api.rotateWriteKey('web', `"${created.revision}"`, 'new-write-key-1', admin);
    expect(state.source('web')!.resource).toMatchObject({
      writeKey: 'new-write-key-1',
      previousWriteKey: 'old-write-key-1',
    });
    expect((await statusOf(api.rotateWriteKey('web', undefined, undefined, admin)))[0]).toBe(409);
    await api.retireWriteKey('web', undefined, admin);
    expect(state.source('web')!.resource.previousWriteKey).toBeUndefined();
  });

  it('refuses to delete a source a destination uses, and deletes with a tombstone', async () => {
    const { api, log, state } = setup();
    await api.createSource({ id: 'web', name: 'Website' }, admin);
    await api.createDestination(destination, admin);
    expect((await statusOf(api.deleteSource('web', undefined, admin)))[0]).toBe(409);
    await api.deleteDestination('hooks', '"1"', admin);
    expect(log.written.at(-1)).toMatchObject({ key: 'destination:hooks', value: null });
    expect(state.destination('hooks')).toBeUndefined();
  });
});

describe('etagMatches and mergePatch', () => {
  it('reads If-Match as HTTP writes it', () => {
    expect(etagMatches('"3"', 3)).toBe(true);
    expect(etagMatches('W/"3"', 3)).toBe(true);
    expect(etagMatches('"2", "3"', 3)).toBe(true);
    expect(etagMatches('*', 3)).toBe(true);
    expect(etagMatches('3', 3)).toBe(false);
    expect(etagMatches('"4"', 3)).toBe(false);
  });

  it('merges objects, removes on null and replaces lists', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { b: { c: null, x: 1 }, e: [2], f: 'n' })).toEqual(
      {
        a: 1,
        b: { d: 3, x: 1 },
        e: [2],
        f: 'n',
      },
    );
  });
});
