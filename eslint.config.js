import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The rules that need no type information, and the rules of hooks with the React Compiler's checks
 * on the console. The type-aware rules (typescript-eslint's recommendedTypeChecked set) run in
 * oxlint's type-aware mode (.oxlintrc.json, decision 0059): the same rules on TypeScript's native
 * compiler in about a tenth of the CPU time and a fraction of the memory.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'apps/server/drizzle/**', '**/*.js', '**/*.mjs', 'scripts/*.d.mts', '**/*.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The console (apps/web): the rules of hooks.
  { files: ['apps/web/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
);
