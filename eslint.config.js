import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The one-way import rule of STYLE.md: each layer lists the folders it must not import. */
const layers = [
  {
    files: ['src/core/**'],
    banned: ['validation', 'server', 'client', 'integrations', 'cli', 'testing'],
    node: true,
  },
  {
    files: ['src/validation/**'],
    banned: ['server', 'client', 'integrations', 'cli', 'testing'],
    node: true,
  },
  { files: ['src/server/**'], banned: ['client', 'integrations', 'cli', 'testing'], node: true },
  { files: ['src/client/**'], banned: ['server', 'integrations', 'cli', 'testing'], node: true },
  { files: ['src/integrations/**'], banned: ['cli', 'testing'], node: false },
  { files: ['src/auth/**'], banned: ['integrations', 'cli', 'testing'], node: true },
  { files: ['src/host/**'], banned: ['cli', 'testing'], node: false },
  { files: ['src/otel/**'], banned: ['integrations', 'cli', 'testing'], node: true },
];

const layerRules = layers.map(({ files, banned, node }) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: banned.map((b) => `**/${b}/**`),
            message: 'Imports point one way (STYLE.md): top → integrations → server | client → core.',
          },
          ...(node
            ? [
                {
                  group: ['node:*'],
                  message: 'Node-only code sits behind a named subpath (src/integrations).',
                },
              ]
            : []),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/spec/**', 'scripts/conformance/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['src/cli/**', 'servers/**', 'bench/**', 'examples/**', 'scripts/**', 'test/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
  ...layerRules,
);
