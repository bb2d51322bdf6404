// The playground's dev server (npm start): http://localhost:5173, cross-origin isolated so the
// pthread build can use SharedArrayBuffer.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Serves the Emscripten output (wasm/dist) byte for byte under /wisp/. Vite must not transform
// it: the pthread worker is a classic script and breaks once rewritten as a module.
const dist = fileURLToPath(new URL('../wasm/dist/', import.meta.url));
const types = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
function serveWispBuild() {
  const middleware = (req, res, next) => {
    const file = path.join(dist, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return next();
    res.setHeader('Content-Type', types[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'no-cache');
    for (const [k, v] of Object.entries(isolationHeaders)) res.setHeader(k, v);
    fs.createReadStream(file).pipe(res);
  };
  return {
    name: 'wisp-build',
    configureServer(server) { server.middlewares.use('/wisp/', middleware); },
    configurePreviewServer(server) { server.middlewares.use('/wisp/', middleware); },
  };
}

export default defineConfig({
  root: here,
  plugins: [serveWispBuild()],
  clearScreen: false,
  server: {
    port: 5173,
    strictPort: true,
    headers: isolationHeaders,
    fs: { allow: [repo] },  // the library and its WASM build live outside web/
  },
  preview: { port: 5173, strictPort: true, headers: isolationHeaders },
  build: { outDir: fileURLToPath(new URL('../build/web', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
