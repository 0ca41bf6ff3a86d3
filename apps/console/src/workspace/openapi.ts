import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { applyOpenApiDecorations } from '@switchyard/contracts';

export const MANAGEMENT_API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${MANAGEMENT_API_PREFIX}/openapi.json`;

/**
 * The management API's OpenAPI 3.1 document, generated from the controllers and the classes
 * that validate their bodies. Only routes under the prefix are described: the pages and the
 * old aliases are not part of the API. The models' own OpenAPI decorations are applied here, the
 * one place that loads @nestjs/swagger for them.
 */
export function managementApiDocument(app: NestFastifyApplication): OpenAPIObject {
  applyOpenApiDecorations();
  const config = new DocumentBuilder()
    .setTitle('Switchyard management API')
    .setDescription(
      'Sources, destinations and the audit trail of a Switchyard workspace, and the delivery tools ' +
        '(attempts, messages, dead letters, replay). Bearer tokens are named; a viewer token may only read.',
    )
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith(`${MANAGEMENT_API_PREFIX}/`)),
  );
  return document;
}

/** Serves the document at OPENAPI_PATH, without a token: it describes the API and holds no data. */
export function serveManagementApiDocument(app: NestFastifyApplication): void {
  const document = managementApiDocument(app);
  app
    .getHttpAdapter()
    .getInstance()
    .get(OPENAPI_PATH, (_request, reply) => {
      void reply.header('cache-control', 'no-cache').send(document);
    });
}
