import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * The renderer's Content-Security-Policy, added to the built index.html only: the dev server needs
 * inline scripts for hot reload, the shipped app never does. Web mode sends the same policy as a header.
 */
const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'proxy-manager-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: RENDERER_CSP },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      lib: { entry: resolve(__dirname, 'src-main/shell/main.ts') },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require() packages, so the contract (and zod) are bundled in.
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src-main/shell/preload.ts') },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    // Relative asset paths: the desktop app loads the page from file://, web mode from its own origin.
    base: './',
    plugins: [react(), contentSecurityPolicy()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves bundles unminified; the renderer is also served to browsers in web mode.
      minify: true,
      rolldownOptions: {
        input: resolve(__dirname, 'src-renderer/index.html'),
      },
    },
  },
});
