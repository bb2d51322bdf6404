// The playground served by the same Vite config as `npm start` (cross-origin isolated), a
// headless Chromium, and a page whose console errors, failed requests and crashes are recorded.
import test from 'node:test';
import { createServer } from 'vite';
import { launch, watch } from './chromium.mjs';

export const repo = new URL('../../', import.meta.url);

/** Starts the server and browser (closed after the file's tests); `problems` collects page errors. */
export async function servePlayground(viewport = { width: 1100, height: 700 }) {
  const server = await createServer({
    configFile: new URL('web/vite.config.js', repo).pathname,
    server: { port: 5199, strictPort: false, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  await server.listen();
  const browser = await launch();
  const page = await browser.newPage({ viewport });
  const problems = watch(page);
  test.after(async () => {
    await browser.close();
    await server.close();
  });
  return { base: server.resolvedUrls.local[0], browser, page, problems };
}
