import tseslint from 'typescript-eslint';

const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' };

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.tmp/**', '.bench-cache/**', 'bin/**', 'eslint.config.js', '.dependency-cruiser.cjs', 'src/web/assets/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NAMED_EXPORTS],
    },
  },
  {
    // A route's request types come from its schema through the type provider (docs/architecture.md, "Route types from
    // route schemas"): typed by hand, they can drift from what Fastify validates.
    // The web pages' routes answer HTML error pages of their own instead of Fastify's validation errors: not here.
    files: ['src/http/**/*.routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NAMED_EXPORTS,
        {
          selector: 'CallExpression[callee.property.name=/^(get|post|put|patch|delete|head|options|all|route)$/][typeArguments]',
          message: "Route types come from the route's schema: fastify.withTypeProvider<RouteTypes>() and a schema with params/querystring/body, not a type argument.",
        },
        {
          selector: 'TSAsExpression > MemberExpression.expression[property.name=/^(params|query|body)$/]',
          message: "Route types come from the route's schema (RouteTypes), not a cast of request.params/query/body.",
        },
      ],
    },
  },
);
