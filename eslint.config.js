// ESLint for the whole repository (`npm run lint`, part of `npm test`): type-aware TypeScript
// rules, React hooks, import rules that agree with .dependency-cruiser.cjs (which owns the
// layering), and eslint-plugin-regexp's super-linear backtracking checks — engine and board
// output is untrusted, so a regex that can go quadratic on it is a bug (see docs/ARCHITECTURE.md).
// Formatting is Prettier's job (`npm run format`); eslint-config-prettier turns off the rules
// that would fight it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import regexp from 'eslint-plugin-regexp';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test/engines/llama/node_modules/**',
      'test-artifacts/**',
      'test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.renderer.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    rules: {
      // Engine and board output is hostile input: no regex may backtrack super-linearly on it.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      // Imports: relative, extensionless, no cycles within a file pair, no duplicates.
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/first': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/*.ts', '**/*.tsx'], message: 'Imports are extensionless (docs/DEVELOPING.md).' }] },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Layering lives in dependency-cruiser; these mirror its two most common mistakes so an
    // editor shows them as you type.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto'],
              message: 'shared/ is pure: no Node built-ins.',
            },
            {
              group: ['**/electron/**', '**/renderer/**', 'electron', 'react'],
              message: 'shared/ imports only shared/ and zod.',
            },
            { group: ['**/*.ts', '**/*.tsx'], message: 'Imports are extensionless (docs/DEVELOPING.md).' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', '**/electron/**', 'electron'], message: 'The renderer talks to the typed API only.' },
            { group: ['**/*.ts', '**/*.tsx'], message: 'Imports are extensionless (docs/DEVELOPING.md).' },
          ],
        },
      ],
    },
  },
  {
    // Tests and benches read untyped JSON (CLI --json output, API and bridge frames, Chrome trace
    // files, mocked Electron objects) and assert on its shape with toEqual/toMatchObject: the
    // assertion is the check. Typing each parse would add casts that claim a shape, not safety,
    // so the no-unsafe family and explicit `any` are off here only; sources keep them on.
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  prettier,
);
