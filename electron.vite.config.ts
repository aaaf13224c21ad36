import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      lib: { entry: resolve(__dirname, 'src-main/shell/main.ts') },
      // The sandbox (demo mode) is a workspace package of TypeScript source: it is bundled into main,
      // never require()d at run time. As a devDependency it is not externalized anyway; the exclude
      // keeps it bundled should it ever be listed under dependencies.
      externalizeDeps: { exclude: ['@proxy-manager/sandbox'] },
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
    // Relative asset paths: the desktop app loads the page from app://renderer/, web mode from its own
    // origin. Both send the Content-Security-Policy as a response header (src-main/shell/
    // content-security-policy.ts, src-main/web/web-server.ts), so the page carries no meta tag.
    base: './',
    plugins: [react()],
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
