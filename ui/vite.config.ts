import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // Relative asset URLs: the page works from the service at `/` and from a desktop host's file:// load.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
