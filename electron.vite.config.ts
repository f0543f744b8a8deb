import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from './electron/node/web/content-security-policy';

// main and preload are bundled for Electron; the renderer is a plain web app that the
// browser mode (kvscope web) serves from out/renderer as well.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(__dirname, 'electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // The window runs with sandbox: true, and a sandboxed preload is a classic script that can
      // require only 'electron': so one CommonJS file (not the ESM .mjs that "type": "module"
      // would give) with its dependencies (zod, via the contract) bundled in, not externalized.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [
      react(),
      // The dev server injects CSS as <style> elements, which the built app's CSP refuses.
      {
        name: 'kvscope-dev-csp',
        apply: 'serve',
        transformIndexHtml: (html: string) => html.replace(CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY),
      },
    ],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves minification off; browser mode serves this over HTTP.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
