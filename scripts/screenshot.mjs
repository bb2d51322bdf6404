// Screenshot of a playground scene for the docs, in headless Chromium with the same Vite
// config as `npm start`:  node scripts/screenshot.mjs <scene> <out.png> [frames] [key=value ...]
import { createServer } from 'vite';
import { launch, watch } from '../tests/browser/chromium.mjs';

const [scene = 'rope', out = 'build/screenshot.png', frames = '120', ...sets] = process.argv.slice(2);
const server = await createServer({
  configFile: new URL('../web/vite.config.js', import.meta.url).pathname,
  server: { port: 5196, strictPort: false, host: '127.0.0.1' }, logLevel: 'warn',
});
await server.listen();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  const problems = watch(page);
  await page.goto(`${server.resolvedUrls.local[0]}?test=1&scene=${scene}`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
  await page.evaluate(({ frames, sets }) => {
    __app.hold(true);
    for (const kv of sets) {
      const [k, v] = kv.split('=');
      const c = __app.gui.controllersRecursive().find((c) => c.property === k);
      c.setValue(typeof c.getValue() === 'number' ? Number(v) : typeof c.getValue() === 'boolean' ? v === 'true' : v);
    }
    __app.advance(frames);
  }, { frames: Number(frames), sets });
  await page.screenshot({ path: out });
  if (problems.length) throw new Error(`console problems: ${JSON.stringify(problems)}`);
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
