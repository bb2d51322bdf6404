// A static file server for the built apps: what any static host does, with or without the
// cross-origin-isolation headers. serve(dir, { isolated }) -> { url, close() }.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
};

// fault: '404' (no .wasm), 'mime' (.wasm as application/octet-stream), 'csp' (workers forbidden).
export function serve(dir, { isolated, fault = null }) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    let file = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (file.endsWith(path.sep)) file = path.join(file, 'index.html');
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile() || (fault === '404' && file.endsWith('.wasm'))) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
    if (fault === 'mime' && file.endsWith('.wasm')) headers['Content-Type'] = 'application/octet-stream';
    if (fault === 'csp') headers['Content-Security-Policy'] = "worker-src 'none'";
    if (isolated) Object.assign(headers, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  })));
}
