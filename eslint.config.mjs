import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The libraries only `agent-skills mcp` uses; src/cli/mcp/libraries.ts is the one module that imports them. */
const MCP_LIBRARIES = ['@modelcontextprotocol/*'];

/** The bundles keep only js-yaml's safe reading (scripts/build.mjs): the product never writes YAML, nor reads JavaScript types. */
const YAML_SAFE_READER = {
  name: 'js-yaml',
  importNames: ['dump', 'safeDump', 'load', 'loadAll'],
  message: "The bundles keep only js-yaml's safe reading (safeLoad, safeLoadAll): write YAML text by hand (see yamlScalar).",
};

/** Imports each layer may not make; the architecture in README's "Layout" depends on them. */
const layers = {
  core: {
    paths: [{ name: 'vscode', message: 'src/core must stay editor-independent.' }, YAML_SAFE_READER],
    patterns: [{ group: ['**/vscode/**', '**/cli/**', '**/test/**', '**/scripts/**', '**/bench/**'], message: 'src/core imports only src/core and libraries.' }],
  },
  cli: {
    paths: [{ name: 'vscode', message: 'The command line runs without VS Code.' }, YAML_SAFE_READER],
    patterns: [
      { group: ['**/vscode/**', '**/test/**', '**/scripts/**', '**/bench/**'], message: 'src/cli imports only src/core, src/cli and libraries.' },
      { group: MCP_LIBRARIES, message: 'Only src/cli/mcp/libraries.ts imports the MCP libraries: the build bundles them apart from the rest of the command line.' },
    ],
  },
  vscode: {
    paths: [YAML_SAFE_READER],
    patterns: [{ group: ['**/cli/**', '**/test/**', '**/scripts/**', '**/bench/**'], message: 'src/vscode imports only src/core, src/vscode and libraries.' }],
  },
  tools: {
    patterns: [{ group: ['**/test/unit/**', '**/test/integration/suites/**'], message: 'scripts/ and bench/ do not import test suites.' }],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'scripts/demo/model/dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test/fixtures/**',
      'test-output/**',
      'demo-workspace/**',
      'scripts/demo/workspace-template/**',
      'test/workspaces/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
    },
  },
  // Rules that need types: a promise nobody awaits hides its failure.
  {
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  { files: ['src/core/**/*.ts'], rules: { 'no-restricted-imports': ['error', layers.core] } },
  { files: ['src/cli/**/*.ts'], rules: { 'no-restricted-imports': ['error', layers.cli] } },
  { files: ['src/cli/mcp/libraries.ts'], rules: { 'no-restricted-imports': ['error', { ...layers.cli, patterns: layers.cli.patterns.filter((pattern) => pattern.group !== MCP_LIBRARIES) }] } },
  { files: ['src/vscode/**/*.ts'], rules: { 'no-restricted-imports': ['error', layers.vscode] } },
  { files: ['scripts/**/*.ts', 'bench/**/*.ts'], rules: { 'no-restricted-imports': ['error', layers.tools] } },
);
