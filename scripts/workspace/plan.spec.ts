import { mapDestinationSecrets, maskSecret } from '@switchyard/workspace';
import { CurrentResource, CurrentWorkspace, GENERATED, Plan, planApply, PlanStep } from './plan';

type Plain = Record<string, unknown>;

const SHARED_SECRET = 'whsec_file_secret_0001';
const HEADER_TOKEN = 'Bearer receiver-token-0001';

const source = (id: string, extra: Plain = {}): Plain => ({ id, name: `Source ${id}`, ...extra });
const destination = (id: string, sources: string[], settings: Plain = {}, extra: Plain = {}): Plain => ({
  id,
  type: 'Webhooks',
  enabled: true,
  sources,
  settings: { webhooks: [{ url: `https://hooks.example.com/${id}` }], ...settings },
  ...extra,
});

/** What the console answers for a destination: its secrets masked. */
const masked = (d: Plain): Plain => mapDestinationSecrets(d, maskSecret);
const read = (resource: Plain, revision = 1): CurrentResource => ({ resource, etag: `"${revision}"` });
const empty: CurrentWorkspace = { sources: [], destinations: [] };
const summary = (plan: Plan) => plan.steps.map((s) => `${s.action} ${s.kind} ${s.id}`);
const only = (plan: Plan): PlanStep => {
  expect(plan.steps).toHaveLength(1);
  return plan.steps[0];
};

describe('planApply', () => {
  it('creates every resource of a file applied to an empty workspace, sources first', () => {
    const plan = planApply(empty, {
      sources: [source('web', { writeKey: 'web-write-key-0001' })],
      destinations: [destination('hooks', ['web'], { sharedSecret: SHARED_SECRET })],
    });
    expect(summary(plan)).toEqual(['create source web', 'create destination hooks']);
    expect(plan.unchanged).toBe(0);
    const create = plan.steps[1];
    expect(create.action === 'create' && create.body).toEqual(
      destination('hooks', ['web'], { sharedSecret: SHARED_SECRET }),
    );
  });

  it('lists the fields a create sets, secrets masked', () => {
    const plan = planApply(empty, {
      sources: [source('web', { writeKey: 'web-write-key-0001' })],
      destinations: [
        destination('hooks', ['web'], {
          sharedSecret: SHARED_SECRET,
          webhooks: [{ url: 'https://a.example.com', headers: { Authorization: HEADER_TOKEN } }],
        }),
      ],
    });
    const [createSource, createDestination] = plan.steps as Extract<PlanStep, { action: 'create' }>[];
    expect(createSource.fields).toEqual([
      { path: 'name', after: '"Source web"' },
      { path: 'writeKey', after: maskSecret('web-write-key-0001') },
    ]);
    expect(createDestination.fields).toContainEqual({ path: 'settings.sharedSecret', after: '••••0001' });
    expect(createDestination.fields).toContainEqual({
      path: 'settings.webhooks[0].headers.Authorization',
      after: '••••0001',
    });
    expect(createDestination.fields).toContainEqual({ path: 'sources', after: '["web"]' });
  });

  it('creates a source without a writeKey so the console generates one', () => {
    const step = only(planApply(empty, { sources: [source('web')], destinations: [] }));
    expect(step.action === 'create' && step.body).toEqual(source('web'));
    expect(step.action === 'create' && step.fields).toContainEqual({ path: 'writeKey', after: GENERATED });
  });

  it('plans nothing when the workspace already matches the file', () => {
    const file = {
      sources: [source('web', { writeKey: 'web-write-key-0001' })],
      destinations: [destination('hooks', ['web'])],
    };
    const plan = planApply(
      { sources: [read(file.sources[0])], destinations: [read(file.destinations[0])] },
      file,
    );
    expect(plan.steps).toEqual([]);
    expect(plan.unchanged).toBe(2);
    expect(plan.unverifiedSecrets).toEqual([]);
  });

  it('updates with the ETag it read and names each field that differs', () => {
    const stored = destination('hooks', ['web'], {}, { enabled: true });
    const wanted = destination(
      'hooks',
      ['web', 'app'],
      {
        webhooks: [{ url: 'https://hooks.example.com/hooks' }, { url: 'https://backup.example.com' }],
      },
      { enabled: false },
    );
    const step = only(
      planApply(
        { sources: [read(source('web')), read(source('app'))], destinations: [read(stored, 7)] },
        { sources: [source('web'), source('app')], destinations: [wanted] },
      ),
    );
    expect(step).toMatchObject({
      action: 'update',
      kind: 'destination',
      id: 'hooks',
      etag: '"7"',
      body: wanted,
    });
    expect(step.action === 'update' && step.fields).toEqual([
      { path: 'enabled', before: 'true', after: 'false' },
      { path: 'sources', before: '["web"]', after: '["web","app"]' },
      { path: 'settings.webhooks[1].url', before: undefined, after: '"https://backup.example.com"' },
    ]);
  });

  it('removes a field the file leaves out', () => {
    const step = only(
      planApply(
        {
          sources: [
            read(source('web', { writeKey: 'k-0000001', allowedOrigins: ['https://a.example.com'] })),
          ],
          destinations: [],
        },
        { sources: [source('web', { writeKey: 'k-0000001' })], destinations: [] },
      ),
    );
    expect(step.action === 'update' && step.fields).toEqual([
      { path: 'allowedOrigins', before: '["https://a.example.com"]', after: undefined },
    ]);
  });

  describe('secrets, which the console answers masked', () => {
    const withSecret = (sharedSecret?: string, header?: string) =>
      destination('hooks', [], {
        ...(sharedSecret ? { sharedSecret } : {}),
        webhooks: [{ url: 'https://a.example.com', ...(header ? { headers: { 'X-Token': header } } : {}) }],
      });
    const planFor = (stored: Plain, wanted: Plain, resendSecrets = false) =>
      planApply(
        { sources: [], destinations: [read(masked(stored))] },
        { sources: [], destinations: [wanted] },
        { resendSecrets },
      );

    it('sees a change when the masks differ, and shows only the masks', () => {
      const step = only(planFor(withSecret('whsec_stored_secret_aaaa'), withSecret(SHARED_SECRET)));
      expect(step.action === 'update' && step.fields).toEqual([
        { path: 'settings.sharedSecret', before: '••••aaaa', after: '••••0001' },
      ]);
      expect(step.action === 'update' && step.body).toEqual(withSecret(SHARED_SECRET));
    });

    it('sees a secret added or removed', () => {
      const added = only(planFor(withSecret(), withSecret(undefined, HEADER_TOKEN)));
      expect(added.action === 'update' && added.fields).toEqual([
        { path: 'settings.webhooks[0].headers.X-Token', before: undefined, after: '••••0001' },
      ]);
      const removed = only(planFor(withSecret(SHARED_SECRET), withSecret()));
      expect(removed.action === 'update' && removed.fields).toEqual([
        { path: 'settings.sharedSecret', before: '••••0001', after: undefined },
      ]);
    });

    it('leaves a resource alone when the masks match, and reports the secrets it could not compare', () => {
      const plan = planFor(
        withSecret('whsec_other_secret_0001', HEADER_TOKEN),
        withSecret(SHARED_SECRET, HEADER_TOKEN),
      );
      expect(plan.steps).toEqual([]);
      expect(plan.unverifiedSecrets).toEqual([
        { kind: 'destination', id: 'hooks', path: 'settings.sharedSecret' },
        { kind: 'destination', id: 'hooks', path: 'settings.webhooks[0].headers.X-Token' },
      ]);
    });

    it('re-sends secrets whose masks match when asked to', () => {
      const step = only(planFor(withSecret(SHARED_SECRET), withSecret(SHARED_SECRET), true));
      expect(step).toMatchObject({ action: 'update', body: withSecret(SHARED_SECRET) });
      expect(step.action === 'update' && step.fields).toEqual([
        { path: 'settings.sharedSecret', before: '••••0001', after: '••••0001', resent: true },
      ]);
    });

    it('sends every secret of a resource it updates for another field, so none is reported unverified', () => {
      const wanted = { ...withSecret(SHARED_SECRET), enabled: false };
      const plan = planFor(withSecret(SHARED_SECRET), wanted);
      expect(only(plan)).toMatchObject({ action: 'update', body: wanted });
      expect(plan.unverifiedSecrets).toEqual([]);
    });

    it('never puts a secret in clear into what it prints', () => {
      const plan = planApply(
        {
          sources: [read(source('web', { writeKey: 'stored-write-key-1' }))],
          destinations: [read(masked(withSecret('whsec_stored_secret_aaaa')))],
        },
        {
          sources: [source('web', { writeKey: 'file-write-key-0001' })],
          destinations: [withSecret(SHARED_SECRET, HEADER_TOKEN)],
        },
      );
      const printable = JSON.stringify(
        plan.steps.map(({ action, kind, id, ...rest }) => ({
          action,
          kind,
          id,
          fields: 'fields' in rest ? rest.fields : [],
        })),
      );
      for (const secret of [
        SHARED_SECRET,
        HEADER_TOKEN,
        'stored-write-key-1',
        'file-write-key-0001',
        'whsec_stored_secret_aaaa',
      ])
        expect(printable).not.toContain(secret);
    });
  });

  describe('write keys', () => {
    const stored = source('web', {
      writeKey: 'current-write-key-01',
      previousWriteKey: 'retiring-write-key-01',
    });

    it('keeps the stored keys of a source whose file entry names no writeKey', () => {
      const plan = planApply(
        { sources: [read(stored)], destinations: [] },
        { sources: [source('web')], destinations: [] },
      );
      expect(plan.steps).toEqual([]);
      const renamed = only(
        planApply(
          { sources: [read(stored)], destinations: [] },
          { sources: [source('web', { name: 'Web' })], destinations: [] },
        ),
      );
      expect(renamed.action === 'update' && renamed.body).toEqual({ ...stored, name: 'Web' });
      expect(renamed.action === 'update' && renamed.fields).toEqual([
        { path: 'name', before: '"Source web"', after: '"Web"' },
      ]);
    });

    it('applies the keys a file names, ending a rotation the file does not list', () => {
      const step = only(
        planApply(
          { sources: [read(stored)], destinations: [] },
          { sources: [source('web', { writeKey: 'current-write-key-01' })], destinations: [] },
        ),
      );
      expect(step.action === 'update' && step.fields).toEqual([
        { path: 'previousWriteKey', before: maskSecret('retiring-write-key-01'), after: undefined },
      ]);
    });

    it('compares write keys in clear when the console answered them in clear', () => {
      const step = only(
        planApply(
          { sources: [read(source('web', { writeKey: 'current-write-key-01' }))], destinations: [] },
          { sources: [source('web', { writeKey: 'another-write-key-01' })], destinations: [] },
        ),
      );
      expect(step.action === 'update' && step.fields).toEqual([
        {
          path: 'writeKey',
          before: maskSecret('current-write-key-01'),
          after: maskSecret('another-write-key-01'),
        },
      ]);
    });
  });

  it('deletes what the file does not name, destinations before the sources they use', () => {
    const plan = planApply(
      {
        sources: [read(source('old'), 3), read(source('kept'))],
        destinations: [
          read(destination('old-hooks', ['old']), 4),
          read(destination('kept-hooks', ['kept', 'old'])),
        ],
      },
      {
        sources: [source('kept'), source('new')],
        destinations: [destination('kept-hooks', ['kept', 'new'])],
      },
    );
    expect(summary(plan)).toEqual([
      'create source new',
      'delete destination old-hooks',
      'update destination kept-hooks',
      'delete source old',
    ]);
    expect(plan.steps[1]).toMatchObject({ etag: '"4"' });
    expect(plan.steps[3]).toMatchObject({ etag: '"3"' });
    expect(plan.unchanged).toBe(1);
  });

  it('creates and updates sources before destinations are created or reconnected', () => {
    const plan = planApply(
      {
        sources: [read(source('web', { name: 'Old' }))],
        destinations: [read(destination('hooks', ['web']))],
      },
      {
        sources: [source('web'), source('app')],
        destinations: [destination('new-hooks', ['app']), destination('hooks', ['web', 'app'])],
      },
    );
    expect(summary(plan)).toEqual([
      'create source app',
      'update source web',
      'create destination new-hooks',
      'update destination hooks',
    ]);
  });
});
