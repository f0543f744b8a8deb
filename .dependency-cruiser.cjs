// The layering of docs/DESIGN.md, enforced: `npm run lint:layers` fails on any violation.
// test/integration/layering/layering.test.ts proves each rule fires on a deliberately broken tree.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-is-pure',
      comment:
        'shared/ is used by main, renderer and CLI alike: no Node built-ins, no Electron, no React, no DOM libs.',
      severity: 'error',
      from: { path: '^shared/' },
      to: {
        dependencyTypes: ['core'],
      },
    },
    {
      name: 'shared-imports-only-shared',
      comment: 'shared/ may import only shared/ and pure npm packages (zod).',
      severity: 'error',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'renderer-not-to-electron',
      comment: 'The renderer reaches the main side only through the typed API (preload or WebSocket bridge).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ['^electron/', '^electron$', '(^|/)node_modules/electron/', '^bin/'] },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer runs sandboxed: no Node built-ins.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'node-services-without-electron',
      comment: 'electron/node/ runs under plain Node (CLI, browser mode, tests): it must not import electron.',
      severity: 'error',
      from: { path: '^electron/node/' },
      to: { path: ['^electron$', '(^|/)node_modules/electron/', '^electron/main/', '^electron/preload/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^out/'] },
    tsConfig: { fileName: 'tsconfig.node.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
