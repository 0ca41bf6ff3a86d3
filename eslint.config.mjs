import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

/** The app or library a path belongs to: the segment after its innermost `apps/` or `libs/` folder. */
function ownerOf(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  for (let i = parts.length - 2; i >= 0; i -= 1) {
    if (parts[i] === 'apps' || parts[i] === 'libs') return { kind: parts[i], name: parts[i + 1] };
  }
  return undefined;
}

/**
 * Apps never import other apps, and libraries never import apps: they share through libs/. Relative
 * imports are resolved against the importing file, so `../../router/src/x` is caught as well as an
 * alias would be.
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
      const target = source.startsWith('.')
        ? ownerOf(path.resolve(path.dirname(context.filename), source))
        : undefined;
      if (!target || target.kind !== 'apps' || (from.kind === 'apps' && target.name === from.name)) return;
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
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kafkajs',
              message: 'Only libs/kafka imports the Kafka client; use the port from @switchyard/kafka.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/libs/kafka/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
