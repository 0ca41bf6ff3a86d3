import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { WorkspaceConfigStore } from '@switchyard/config';
import { ApiTokens, hashToken } from '@switchyard/service';
import { SecretCipher, WorkspaceState } from '@switchyard/workspace';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleSettings } from '../console-settings';
import { ConsoleViews } from '../console-views';
import { AttemptIndex } from '../index/attempt-index';
import { CallSample } from '../index/call-sample';
import { DeadLetterIndex } from '../index/dead-letter-index';
import { DeliveryReplay } from '../replay/delivery-replay';
import { AuditTrail } from '../workspace/audit-trail';
import { WorkspaceAdmin, WorkspaceChange, WorkspaceLog } from '../workspace/workspace-admin';
import { field } from './destination-form';
import { DestinationTester } from './destination-tester';
import { WEB_PAGE_CONTROLLERS } from './web-controllers';

const VIEWER_TOKEN = 'viewer-token-0123456789';
const SECRET = 'shared-secret-0123456789';
const HEADER_VALUE = 'Bearer header-secret-0123456789';

/** A workspace topic that applies each change at once, as the topic's reader would, and feeds the audit trail. */
class AppliedLog implements WorkspaceLog {
  /** Set: no broker answers, as KafkaWorkspaceLog then says. */
  unreachable = false;

  constructor(
    private readonly state: WorkspaceState,
    private readonly audit: AuditTrail,
  ) {}
  async append(change: WorkspaceChange) {
    this.state.apply(change.key, change.value);
    this.audit.add(change.audit);
  }
  async caughtUp() {
    if (this.unreachable) throw new Error('no Kafka broker answers');
  }
}

/** The pages over HTTP, on a workspace held in memory: the Kafka side is the management API's own tests' job. */
describe('the setup pages over HTTP', () => {
  let app: NestFastifyApplication;
  let state: WorkspaceState;
  let log: AppliedLog;
  let cookies: { admin: string; viewer: string };
  const tested: string[] = [];

  beforeAll(async () => {
    const cipher = SecretCipher.fromSetting(`k1:${randomBytes(32).toString('base64')}`);
    state = new WorkspaceState(cipher);
    const audit = new AuditTrail(100);
    const tokens = ApiTokens.from(
      'an-admin-token-0123456789',
      `support viewer sha256:${hashToken(VIEWER_TOKEN).toString('hex')}`,
    );
    const sessions = new ConsoleSessions(tokens, 60_000, false);
    const workspace = {
      get config() {
        return state.config;
      },
      source: (id: string) => state.source(id)?.resource,
      destination: (id: string) => state.destination(id)?.resource,
    } as unknown as WorkspaceConfigStore;
    const indexes = {
      attempts: new AttemptIndex(10),
      calls: new CallSample(10, () => true),
      deadLetters: new DeadLetterIndex(10),
    };
    const tester: DestinationTester = {
      test: async (id) => {
        tested.push(id);
        return {
          results: [{ url: 'https://a.example/hook', status: 502, durationMs: 12, bodyStart: '<b>down</b>' }],
        };
      },
    };
    const module = await Test.createTestingModule({
      controllers: WEB_PAGE_CONTROLLERS,
      providers: [
        {
          provide: WorkspaceAdmin,
          useValue: new WorkspaceAdmin(state, (log = new AppliedLog(state, audit)), cipher),
        },
        { provide: AuditTrail, useValue: audit },
        { provide: ConsoleViews, useValue: new ConsoleViews(indexes, workspace) },
        { provide: ConsoleSessions, useValue: sessions },
        { provide: DestinationTester, useValue: tester },
        { provide: DeliveryReplay, useValue: {} },
        { provide: ConsoleSettings, useValue: { ingestUrl: 'https://ingest.example.com' } },
      ],
    }).compile();
    app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const cookieOf = (name: string) => sessions.issue(tokens.holderNamed(name)!).split(';')[0];
    cookies = { admin: cookieOf('admin'), viewer: cookieOf('support') };
  });
  afterAll(() => app.close());

  const get = (url: string, who: keyof typeof cookies = 'admin') =>
    app.inject({ method: 'GET', url, headers: { cookie: cookies[who] } });
  const post = (url: string, form: Record<string, string>, who: keyof typeof cookies = 'admin') =>
    app.inject({
      method: 'POST',
      url,
      headers: { cookie: cookies[who], 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  const destinationForm = (revision?: string): Record<string, string> => ({
    ...(revision ? { [field.revision]: revision } : { [field.id]: 'hooks' }),
    [field.source('web')]: 'on',
    [field.url(0)]: 'https://a.example/hook',
    [field.headerName(0, 0)]: 'Authorization',
    [field.headerValue(0, 0)]: HEADER_VALUE,
    [field.sharedSecret]: SECRET,
    [field.enabled]: 'on',
  });

  it('creates a source and shows its write key once, with the setup pointed at ingest', async () => {
    const created = await post('/sources', { id: 'web', name: 'Website', allowedOrigins: '' });
    expect(created.statusCode).toBe(201);
    const writeKey = state.source('web')!.resource.writeKey;
    expect(created.body).toContain(`<code class="write-key" id="write-key">${writeKey}</code>`);
    expect(created.body).toContain('https://ingest.example.com/analytics.js/v1/');
    const list = await get('/sources');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<tr class="source" data-id="web">');
    expect(list.body).not.toContain(writeKey);
  });

  it('answers a bad source with the form again, the values typed and each problem', async () => {
    const refused = await post('/sources', { id: 'no spaces', name: 'Shop' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="no spaces"');
    expect(refused.body).toMatch(/<li class="problem">id: [^<]+<\/li>/);
  });

  it('creates a destination from the form: URL row, header row, secret and source check box', async () => {
    const created = await post('/destinations', destinationForm());
    expect([created.statusCode, created.headers.location]).toEqual([303, '/destinations/hooks']);
    expect(state.destination('hooks')!.resource).toMatchObject({
      enabled: true,
      sources: ['web'],
      settings: {
        sharedSecret: SECRET,
        webhooks: [{ url: 'https://a.example/hook', headers: { Authorization: HEADER_VALUE } }],
      },
    });
    const page = await get('/destinations/hooks');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('https://a.example/hook');
    expect(page.body).not.toContain(SECRET);
    expect(page.body).not.toContain(HEADER_VALUE);
  });

  it('keeps the stored secrets when the edit form is posted with the secret left empty and the masks as shown', async () => {
    const form = await get('/destinations/hooks/edit');
    expect(form.body).not.toContain(SECRET);
    expect(form.body).not.toContain(HEADER_VALUE);
    const shownHeader = /name="webhook0\.header0\.value" value="([^"]*)"/.exec(form.body)![1];
    const saved = await post('/destinations/hooks/edit', {
      ...destinationForm('1'),
      [field.headerValue(0, 0)]: shownHeader,
      [field.sharedSecret]: '',
      [field.enabled]: '',
    });
    expect([saved.statusCode, saved.headers.location]).toEqual([303, '/destinations/hooks']);
    expect(state.destination('hooks')!).toMatchObject({
      revision: 2,
      resource: {
        enabled: false,
        settings: { sharedSecret: SECRET, webhooks: [{ headers: { Authorization: HEADER_VALUE } }] },
      },
    });
  });

  it('answers an edit made on a revision that changed since with the form, the values posted and a clear message', async () => {
    const stale = await post('/destinations/hooks/edit', {
      ...destinationForm('1'),
      [field.url(0)]: 'https://stale.example',
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('changed since you opened this page');
    expect(stale.body).toContain('value="https://stale.example"');
    expect(state.destination('hooks')!.revision).toBe(2);
  });

  it('answers a form posted while no broker answers with the form again, the values typed and why', async () => {
    log.unreachable = true;
    try {
      const source = await post('/sources', { id: 'app', name: 'Mobile app' });
      const destination = await post('/destinations', {
        ...destinationForm(),
        [field.id]: 'later',
        [field.url(0)]: 'https://later.example/hook',
      });
      for (const refused of [source, destination]) {
        expect(refused.statusCode).toBe(503);
        expect(refused.body).toContain('the workspace topic cannot be written: no Kafka broker answers');
      }
      expect(source.body).toContain('value="Mobile app"');
      expect(destination.body).toContain('value="https://later.example/hook"');
      expect(destination.body).not.toContain(SECRET);
      expect([state.source('app'), state.destination('later')]).toEqual([undefined, undefined]);
    } finally {
      log.unreachable = false;
    }
  });

  it('shows each URL a test event tried, the body escaped', async () => {
    const page = await post('/destinations/hooks/test', {});
    expect(page.statusCode).toBe(200);
    expect(tested).toEqual(['hooks']);
    expect(page.body).toContain('<pre class="response-body">&lt;b&gt;down&lt;/b&gt;</pre>');
  });

  it('lets a viewer look, without forms, and answers its posts with 403, changing nothing', async () => {
    const list = await get('/destinations', 'viewer');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<tr class="destination" data-id="hooks">');
    expect(list.body).not.toContain('/destinations/hooks/edit');
    expect((await get('/destinations/new', 'viewer')).statusCode).toBe(403);
    expect((await post('/sources', { id: 'shop', name: 'Shop' }, 'viewer')).statusCode).toBe(403);
    expect((await post('/destinations/hooks/delete', { revision: '2' }, 'viewer')).statusCode).toBe(403);
    expect((await post('/dead-letters/replay', { id: '0:1' }, 'viewer')).statusCode).toBe(403);
    expect(state.source('shop')).toBeUndefined();
    expect(state.destination('hooks')).toBeDefined();
  });

  it('rotates a write key, shows the new one once, and retires the previous one', async () => {
    const before = state.source('web')!;
    const rotated = await post('/sources/web/rotate', { revision: String(before.revision) });
    const { writeKey, previousWriteKey } = state.source('web')!.resource;
    expect(rotated.statusCode).toBe(200);
    expect(previousWriteKey).toBe(before.resource.writeKey);
    expect(rotated.body).toContain(writeKey);
    expect(rotated.body).not.toContain(previousWriteKey);
    const retired = await post('/sources/web/retire', { revision: String(state.source('web')!.revision) });
    expect(retired.statusCode).toBe(303);
    expect(state.source('web')!.resource.previousWriteKey).toBeUndefined();
  });

  it('deletes a destination only from its confirmation page, at the revision that page showed', async () => {
    const confirm = await get('/destinations/hooks/delete');
    expect(confirm.body).toContain('<input type="hidden" name="revision" value="2">');
    const deleted = await post('/destinations/hooks/delete', { revision: '2' });
    expect([deleted.statusCode, deleted.headers.location]).toEqual([303, '/destinations']);
    expect(state.destination('hooks')).toBeUndefined();
  });

  it('lists every change on the audit page, newest first, filtered by resource', async () => {
    const page = await get('/audit?kind=destination');
    const rows = [
      ...page.body.matchAll(/<tr class="change" data-kind="(\w+)" data-id="(\w+)" data-action="(\w+)">/g),
    ];
    expect(rows.map((r) => `${r[1]} ${r[2]} ${r[3]}`)).toEqual([
      'destination hooks delete',
      'destination hooks update',
      'destination hooks create',
    ]);
    expect(page.body).not.toContain(SECRET);
    expect(page.body).not.toContain(HEADER_VALUE);
  });

  it('sends a request without a session to the login page', async () => {
    const page = await app.inject({ method: 'GET', url: '/sources' });
    expect([page.statusCode, page.headers.location]).toEqual([303, '/login']);
  });
  it('keeps the fields the edit form does not show: signature scheme, previous secret, filters', async () => {
    const admin = app.get(WorkspaceAdmin);
    const holder = { name: 'admin', role: 'admin' as const };
    const previous = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const current = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    await admin.createDestination(
      {
        id: 'kept',
        type: 'Webhooks',
        enabled: true,
        sources: ['web'],
        filters: [{ name: 'no-tests', if: { field: 'event', equals: 'Test' }, then: { drop: true } }],
        settings: {
          signature: 'standard-webhooks',
          sharedSecret: current,
          previousSecret: previous,
          previousSecretExpiresAt: '2099-01-01T00:00:00Z',
          webhooks: [{ url: 'https://a.example/hook' }],
        },
      },
      holder,
    );
    const saved = await post('/destinations/kept/edit', {
      [field.revision]: '1',
      [field.source('web')]: 'on',
      [field.url(0)]: 'https://b.example/hook',
      [field.sharedSecret]: '',
      [field.enabled]: 'on',
    });
    expect(saved.statusCode).toBe(303);
    expect(state.destination('kept')!).toMatchObject({
      revision: 2,
      resource: {
        filters: [{ name: 'no-tests' }],
        settings: {
          signature: 'standard-webhooks',
          sharedSecret: current,
          previousSecret: previous,
          webhooks: [{ url: 'https://b.example/hook' }],
        },
      },
    });
  });
});
