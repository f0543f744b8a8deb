// The layering of docs/DESIGN.md, enforced: `npm run lint:layers` fails on any violation.
// test/integration/layering/layering.test.ts proves each rule fires on a deliberately broken tree.
/** A dependency from `from` to `to` that fails the build. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'shared-is-pure',
      'shared/ is used by main, renderer and CLI alike: no Node built-ins, no Electron, no React, no DOM libs.',
      { path: '^shared/' },
      { dependencyTypes: ['core'] },
    ),
    forbid(
      'shared-imports-only-shared',
      'shared/ may import only shared/ and pure npm packages (zod).',
      { path: '^shared/' },
      { pathNot: ['^shared/', '(^|/)node_modules/zod/'] },
    ),
    forbid(
      'renderer-not-to-electron',
      'The renderer reaches the main side only through the typed API (preload or WebSocket bridge).',
      { path: '^renderer/' },
      { path: ['^electron/', '^electron$', '(^|/)node_modules/electron/', '^bin/'] },
    ),
    forbid(
      'renderer-no-node',
      'The renderer runs sandboxed: no Node built-ins.',
      { path: '^renderer/' },
      { dependencyTypes: ['core'] },
    ),
    forbid(
      'node-services-without-electron',
      'electron/node/ runs under plain Node (CLI, browser mode, tests): it must not import electron.',
      { path: '^electron/node/' },
      { path: ['^electron$', '(^|/)node_modules/electron/', '^electron/main/', '^electron/preload/'] },
    ),
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
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
