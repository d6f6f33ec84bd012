import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The built UI has no fixtures in it; the dev server (plain-browser mode with the fake
// backend) serves the recorded run under /fixtures so it can be replayed.
export default defineConfig(({ command }) => ({
  plugins: [react()],
  base: './',
  publicDir: command === 'serve' ? 'fixtures-public' : false,
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  build: { outDir: 'dist', target: 'es2022', chunkSizeWarningLimit: 3000 },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
}));
