// The playground's dev server (npm start): http://localhost:5173, cross-origin isolated so the
// pthread build can use SharedArrayBuffer.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: here,
  clearScreen: false,
  server: {
    port: 5173,
    strictPort: true,
    headers: isolationHeaders,
    fs: { allow: [repo] },  // the library and its WASM build live outside web/
  },
  preview: { port: 5173, strictPort: true, headers: isolationHeaders },
  // npm run build: a static site in web/dist (the WASM files are emitted next to the bundle by the
  // loader's new URL(…, import.meta.url) literals); relative base, so any folder of any host works.
  base: './',
  build: { outDir: fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1500 },  // three.js + lil-gui + scenes: ~850 kB
});
