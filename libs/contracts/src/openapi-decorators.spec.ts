import 'reflect-metadata';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  applyOpenApiDecorations,
} from './openapi-decorators';

// The test reads what @nestjs/swagger recorded, as the console's document does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const swaggerKeys = () => (require('@nestjs/swagger') as typeof import('@nestjs/swagger')).DECORATORS;

const propertiesOf = (model: { prototype: object }): unknown =>
  Reflect.getMetadata(swaggerKeys().API_MODEL_PROPERTIES_ARRAY, model.prototype);

describe('OpenAPI decorators of the models', () => {
  it('record each decoration until the document is built, then apply it as @nestjs/swagger does', () => {
    class Referenced {
      @ApiProperty({ description: 'an id' })
      id!: string;
    }
    @ApiExtraModels(Referenced)
    class Model {
      @ApiProperty({ description: 'a name' })
      name!: string;
      @ApiPropertyOptional({ description: 'a note' })
      note?: string;
    }
    expect(propertiesOf(Model)).toBeUndefined();

    applyOpenApiDecorations();

    expect(propertiesOf(Model)).toEqual([':name', ':note']);
    const { description, required } = Reflect.getMetadata(
      swaggerKeys().API_MODEL_PROPERTIES,
      Model.prototype,
      'note',
    ) as { description: string; required: boolean };
    expect({ description, required }).toEqual({ description: 'a note', required: false });
    expect(Reflect.getMetadata(swaggerKeys().API_EXTRA_MODELS, Model)).toEqual([Referenced]);
    expect(propertiesOf(Referenced)).toEqual([':id']);

    class Later {
      @ApiProperty()
      value!: number;
    }
    expect(propertiesOf(Later)).toEqual([':value']);
  });
});
