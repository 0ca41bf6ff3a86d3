import SwaggerParser from '@apidevtools/swagger-parser';
import { Test } from '@nestjs/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AdminRequests, ApiTokens } from '@switchyard/service';
import { AdminRequestsController } from '../admin-requests/admin-requests.controller';
import { ConsoleApiController } from '../api/console-api.controller';
import { ConsoleAuthGuard } from '../auth/console-auth.guard';
import { ConsoleViews } from '../console-views';
import { DeliveryReplay } from '../replay/delivery-replay';
import { ConsoleSessions } from '../auth/console-sessions';
import { AuditTrail } from './audit-trail';
import { managementApiDocument } from './openapi';
import { WorkspaceAdmin } from './workspace-admin';
import { WorkspaceApiController } from './workspace-api.controller';

describe('the management API document', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const tokens = ApiTokens.from('a-long-enough-admin-token');
    const module = await Test.createTestingModule({
      controllers: [WorkspaceApiController, ConsoleApiController, AdminRequestsController],
      providers: [
        { provide: WorkspaceAdmin, useValue: {} },
        { provide: ConsoleViews, useValue: {} },
        { provide: AdminRequests, useValue: {} },
        { provide: DeliveryReplay, useValue: {} },
        { provide: AuditTrail, useValue: new AuditTrail(1) },
        { provide: ApiTokens, useValue: tokens },
        { provide: ConsoleSessions, useValue: new ConsoleSessions(tokens, 1000, false) },
        ConsoleAuthGuard,
      ],
    }).compile();
    app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
  });
  afterAll(() => app.close());

  it('is a valid OpenAPI 3.1 document, by a validator nobody here wrote', async () => {
    const document = managementApiDocument(app);
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('describes only the management API, not the old aliases under /api/', () => {
    const paths = Object.keys(managementApiDocument(app).paths);
    expect(paths.filter((path) => !path.startsWith('/api/v1/'))).toEqual([]);
  });

  it('describes the fixed collections under /api/v1, and every field of the workspace file', () => {
    const document = managementApiDocument(app);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/sources',
        '/api/v1/destinations',
        '/api/v1/audit',
        '/api/v1/sources/{id}',
      ]),
    );
    const schemas = document.components!.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(Object.keys(schemas.Destination.properties).sort()).toEqual(
      ['enabled', 'filters', 'id', 'name', 'settings', 'sources', 'type'].sort(),
    );
    expect(Object.keys(schemas.FilterRule.properties)).toEqual(['name', 'if', 'then']);
    for (const condition of ['FieldCondition', 'AllConditions', 'AnyCondition', 'NotCondition'])
      expect(schemas[condition]).toBeDefined();
    expect(Object.keys(schemas.WebhooksSettings.properties)).toEqual(
      expect.arrayContaining(['sharedSecret', 'webhooks', 'rateLimit', 'retry']),
    );
    expect(Object.keys(schemas.RateLimit.properties)).toEqual(['perSecond', 'burst']);
    expect(Object.keys(schemas.RetryPolicySettings.properties)).toEqual(['windowMs', 'scheduleMs']);
  });

  it('describes audience syncs and deletions from the classes that validate them', () => {
    const document = managementApiDocument(app);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/audience-syncs', '/api/v1/deletions']),
    );
    const schemas = document.components!.schemas as Record<
      string,
      { properties: Record<string, unknown>; required?: string[] }
    >;
    expect(Object.keys(schemas.AudienceSyncBody.properties).sort()).toEqual(
      ['computation', 'delta', 'snapshot', 'syncId'].sort(),
    );
    expect(schemas.AudienceSyncBody.required?.sort()).toEqual(['computation', 'syncId']);
    expect(Object.keys(schemas.Computation.properties).sort()).toEqual(
      ['class', 'id', 'name', 'sourceId', 'spaceId', 'traitKey'].sort(),
    );
    for (const part of ['SnapshotPage', 'Delta', 'Member']) expect(schemas[part]).toBeDefined();
    expect(Object.keys(schemas.DeletionRequestBody.properties).sort()).toEqual(['sourceIds', 'userIds']);
    expect(schemas.DeletionRequestBody.required).toEqual(['userIds']);
  });
});
