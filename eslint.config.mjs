import { existsSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

/**
 * The app or library a path belongs to: the segment after its innermost `apps/` or `libs/` folder,
 * and the path inside it (`src/ingest.entry`, without the extension).
 */
function ownerOf(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  for (let i = parts.length - 2; i >= 0; i -= 1) {
    if (parts[i] === 'apps' || parts[i] === 'libs')
      return {
        kind: parts[i],
        name: parts[i + 1],
        inside: parts
          .slice(i + 2)
          .join('/')
          .replace(/\.ts$/, ''),
      };
  }
  return undefined;
}

/**
 * The app or library an import names: a relative path (resolved against the importing file), a
 * path from the repository root (tsconfig's baseUrl makes `apps/x/...` importable), or an
 * `@switchyard/<name>` alias of an app.
 */
function targetOf(source, importer) {
  if (source.startsWith('.')) return ownerOf(path.resolve(path.dirname(importer), source));
  if (/^(apps|libs)\//.test(source)) return ownerOf(path.join(ROOT, source));
  const alias = /^@switchyard\/([^/]+)/.exec(source);
  if (alias && existsSync(path.join(ROOT, 'apps', alias[1]))) return { kind: 'apps', name: alias[1] };
  return undefined;
}

const KAFKAJS_WALL = {
  name: 'kafkajs',
  message: 'Only libs/kafka imports the Kafka client; use the port from @switchyard/kafka.',
};

/* Only the console serves the OpenAPI document; loading @nestjs/swagger costs every other service heap. */
const SWAGGER_WALL = {
  name: '@nestjs/swagger',
  message: "Only apps/console loads @nestjs/swagger; models take @switchyard/contracts's OpenAPI decorators.",
  allowTypeImports: true,
};

/* class-validator's index loads every decorator and validator.js whole; its facade loads what is used. */
const CLASS_VALIDATOR_WALL = {
  name: 'class-validator',
  message: "Import class-validator's decorators from @switchyard/contracts/class-validator, one module each.",
  allowTypeImports: true,
};

/**
 * Each package wall and the files that own the package, where that wall does not apply. A file
 * owns at most one walled package.
 */
const PACKAGE_WALLS = [
  { wall: KAFKAJS_WALL, owners: ['**/libs/kafka/**/*.ts'] },
  { wall: SWAGGER_WALL, owners: ['**/apps/console/**/*.ts'] },
  {
    wall: CLASS_VALIDATOR_WALL,
    owners: [
      '**/libs/contracts/src/class-validator.ts',
      '**/libs/contracts/src/class-validator-modules.d.ts',
    ],
  },
];

const restrictedImports = (walls) => ['error', { paths: walls.map(({ wall }) => wall) }];

/**
 * The one exception to the wall: apps/switchyard, the all-in-one process, is the composition root
 * that runs several services in one process (docs/decisions/0011-all-in-one-process.md). It may
 * import each app's entry module, `apps/<name>/src/<name>.entry`, and nothing else of an app.
 */
const COMPOSITION_ROOT = 'switchyard';

function isEntryImportOfCompositionRoot(from, target) {
  return (
    from.kind === 'apps' && from.name === COMPOSITION_ROOT && target.inside === `src/${target.name}.entry`
  );
}

/**
 * Apps never import other apps, and libraries never import apps: they share through libs/. The
 * all-in-one composition root's imports of entry modules are the one exception (above).
 */
const importWalls = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      appToApp:
        'apps/{{from}} imports apps/{{to}}: an app never imports another app; share through a library in libs/.',
      libToApp: 'libs/{{from}} imports apps/{{to}}: a library never imports an app.',
    },
  },
  create(context) {
    const from = ownerOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = targetOf(source, context.filename);
      if (!target || target.kind !== 'apps' || (from.kind === 'apps' && target.name === from.name)) return;
      if (isEntryImportOfCompositionRoot(from, target)) return;
      context.report({
        node: node.source,
        messageId: from.kind === 'apps' ? 'appToApp' : 'libToApp',
        data: { from: from.name, to: target.name },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.kafka/**',
      '.cache/**',
      'libs/analytics/dist/**',
      'clients/**',
      'test/conformance/**/vendor/**',
      // Each breaks a rule on purpose; test/lint/lint-rules.spec.ts lints them with this configuration.
      'test/lint/fixtures/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { switchyard: { rules: { 'import-walls': importWalls } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'switchyard/import-walls': 'error',
      '@typescript-eslint/no-restricted-imports': restrictedImports(PACKAGE_WALLS),
    },
  },
  // The package's owners are spared its own wall and keep the others.
  ...PACKAGE_WALLS.map(({ wall, owners }) => ({
    files: owners,
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictedImports(
        PACKAGE_WALLS.filter((w) => w.wall !== wall),
      ),
    },
  })),
);
