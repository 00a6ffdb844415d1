import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [react()],
  // The page compares it with the backend's AppVersion and reloads on a difference.
  define: { __APP_VERSION__: JSON.stringify(version) },
  // Relative asset URLs: the page works from the service at `/` and from a desktop host's file:// load.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
