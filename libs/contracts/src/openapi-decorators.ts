import type { ApiPropertyOptions } from '@nestjs/swagger';

type Swagger = typeof import('@nestjs/swagger');
type Decoration = (swagger: Swagger) => void;

/*
 * The OpenAPI decorators of the models that the console's management API describes, without
 * loading @nestjs/swagger. Only the console serves the document, and the package would cost every
 * other service megabytes of heap for metadata it never reads. Each decoration is recorded here;
 * the console applies them with @nestjs/swagger's own decorators (applyOpenApiDecorations) before
 * it builds the document, and a decoration made after that is applied at once.
 */
const recorded: Decoration[] = [];
let swagger: Swagger | undefined;

function decorate(decoration: Decoration): void {
  if (swagger) decoration(swagger);
  else recorded.push(decoration);
}

/** @nestjs/swagger's ApiProperty, applied when the console builds its document. */
export function ApiProperty(options?: ApiPropertyOptions): PropertyDecorator {
  return (target, key) => decorate((real) => real.ApiProperty(options)(target, key));
}

/** @nestjs/swagger's ApiPropertyOptional, applied when the console builds its document. */
export function ApiPropertyOptional(options?: ApiPropertyOptions): PropertyDecorator {
  return (target, key) => decorate((real) => real.ApiPropertyOptional(options)(target, key));
}

/** @nestjs/swagger's ApiExtraModels on a class, applied when the console builds its document. */
export function ApiExtraModels(...models: (abstract new (...args: never[]) => unknown)[]): ClassDecorator {
  return (target) => decorate((real) => real.ApiExtraModels(...models)(target));
}

/** The document's reference to a model by its schema name (what @nestjs/swagger's getSchemaPath gives for a name). */
export const schemaRef = (name: string): string => `#/components/schemas/${name}`;

/**
 * Loads @nestjs/swagger and applies every decoration recorded so far; later ones apply at once.
 * Called by the process that builds the OpenAPI document, before it builds it.
 */
export function applyOpenApiDecorations(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where the document is built
  swagger ??= require('@nestjs/swagger') as Swagger;
  for (const decoration of recorded.splice(0)) decoration(swagger);
}
