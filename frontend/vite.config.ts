/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The Go server (make run) serves the API; `npm run dev` proxies to it.
const api = process.env.PAYGATE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/readyz': api,
      '^/pay_': api,
    },
  },
  build: {
    outDir: 'dist',
    // dist/.gitkeep is committed (the Go embed needs a file on a clean
    // clone); scripts/clean-dist.mjs empties the rest before a build.
    emptyOutDir: false,
    manifest: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 900,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // The longest test fills the 15-field service editor (~3 s alone, ~7 s
    // when the two cores are shared); waits inside tests use findBy/waitFor.
    testTimeout: 15_000,
    // One jsdom and one Mantine import per worker, not per file (the
    // suite's time halves); src/test/setup.ts resets the shared state.
    isolate: false,
  },
});
