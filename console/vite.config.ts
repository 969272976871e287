// Builds the web console (console/src) into console/dist: hashed assets plus index.html, no inline script (the
// console's Content-Security-Policy allows scripts from this origin only). See docs/console.md.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildInputs } from './build/build-inputs.js';
import { hubSizeReport } from './build/hub-size-report.js';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // No base64 data: URLs for scripts; small images may still be inlined (CSP allows data: images only).
    assetsInlineLimit: 0,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React libraries carry "use client" directives for server components; a browser bundle drops them.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  plugins: [hubSizeReport({ limitBytes: 150 * 1024 }), buildInputs()],
});
