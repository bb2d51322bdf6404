// The package as a user gets it: `npm pack`, installed from the tarball into fresh apps outside
// this repository (Vite and webpack 5 with three.js, and plain Node), built, served with and
// without cross-origin isolation, and run in headless Chromium. Also the static playground of
// `npm run build` (web/dist). Fixture installs use the committed lockfiles and npm's cache.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launch, watch } from '../browser/chromium.mjs';
import { serve } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wisp-consumer-'));
const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// the tarball, exactly what `npm publish` would upload
const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], repo));
const tarball = path.join(tmp, packed[0].filename);

function fixture(name, extra = []) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (const f of ['package.json', 'package-lock.json', ...extra]) {
    if (fs.existsSync(path.join(here, name, f))) fs.copyFileSync(path.join(here, name, f), path.join(dir, f));
  }
  for (const f of ['main.js', 'index.html']) fs.copyFileSync(path.join(here, 'app', f), path.join(dir, f));
  npm(['install', '--prefer-offline', tarball], dir);
  return dir;
}

const browser = await launch();
test.after(async () => {
  await browser.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Loads the app and checks what it reports: the scene simulates, the build matches isolation,
// and nothing is logged as an error or warning and no request fails.
async function runApp(url, isolated) {
  const page = await browser.newPage();
  const problems = watch(page);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60000 });
    const r = await page.evaluate(() => window.__result);
    assert.equal(r.error, undefined, `${url}: ${r.error}`);
    assert.equal(r.isolated, isolated, `${url}: crossOriginIsolated`);
    assert.equal(r.threaded, isolated, `${url}: the ${isolated ? 'threaded' : 'single-threaded'} build`);
    assert.ok(r.finite, 'no NaN');
    assert.ok(r.moved > 0.01, `positions changed by ${r.moved} m`);
    assert.ok(r.boneTurned, 'the spring-bone chain turned its SkinnedMesh bones');
    if (isolated) assert.ok(r.workerMoved > 0.01, `a worker world's rope fell ${r.workerMoved} m`);
    await page.waitForTimeout(200);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
}

// Runs a build; returns stdout and stderr together (warnings go to either), throws on failure.
function build(args, cwd) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, out);
  return out;
}
// Vite's advice on chunks over 500 kB is about three.js in the app's bundle (~570 kB alone), not wisp.
const builtWarnings = (out) => out.split('\n')
  .filter((l) => /warn|externalized|\(!\)|critical dependency/i.test(l) && !/Some chunks are larger than 500 kB|chunkSizeWarningLimit/.test(l));

test('the tarball ships the API, the adapters, their types, the builds and the license, nothing else', () => {
  const files = packed[0].files.map((f) => f.path).sort();
  for (const f of ['LICENSE', 'README.md', 'wasm/js/index.js', 'wasm/js/index.d.ts', 'web/adapters/index.js', 'web/adapters/index.d.ts',
    'wasm/dist/web/wisp.mjs', 'wasm/dist/web/wisp.wasm', 'wasm/dist/web/wisp-st.mjs', 'wasm/dist/web/wisp-st.wasm',
    'wasm/dist/web/wisp.worker-source.js', 'wasm/dist/node/wisp.js', 'wasm/dist/node/wisp-st.js', 'wasm/dist/node/wisp.worker.js']) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  // index.js is the entry; the API is split over the files beside it
  for (const f of fs.readdirSync(path.join(repo, 'wasm/js'))) assert.ok(files.includes(`wasm/js/${f}`), `wasm/js/${f} is in the package`);
  assert.deepEqual(files.filter((f) => !/^(wasm\/js|wasm\/dist\/(web|node)|web\/adapters)\/|^(LICENSE|README\.md|package\.json)$/.test(f)), []);
  // what the README links to must be reachable from npm's page: absolute links only
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const relative = [...readme.matchAll(/\]\((?!https?:|#)([^)]+)\)/g)].map((m) => m[1]);
  assert.deepEqual(relative, [], 'README links that would break on the package page');
});

test('Node: importing wisp from the tarball in a fresh directory works and leaves no globals or process handlers', () => {
  const dir = path.join(tmp, 'node-app');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "node-app", "private": true, "type": "module" }\n');
  npm(['install', '--prefer-offline', tarball], dir);
  fs.writeFileSync(path.join(dir, 'check.mjs'), `
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const listeners = () => ['uncaughtException', 'unhandledRejection', 'exit'].map((e) => process.listenerCount(e));
    const l0 = listeners();
    const { createWisp } = await import('wisp');
    const out = { builds: [] };
    for (const threads of [true, false]) {
      const wisp = await createWisp({ threads });
      const world = wisp.createWorld({});
      const rope = world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 8, pinned: [0] });
      for (let i = 0; i < 10; i++) world.step(1 / 60);
      out.builds.push({ threaded: wisp.threaded, y: rope.positions[3 * 8 + 1] });
      world.dispose();
    }
    out.globals = Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k));
    out.listeners = [l0, listeners()];
    console.log(JSON.stringify(out));`);
  const out = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop());
  assert.deepEqual(out.builds.map((b) => b.threaded), [true, false]);
  for (const b of out.builds) assert.ok(b.y < -0.01 && Number.isFinite(b.y), `the rope falls (${b.y})`);
  assert.deepEqual(out.globals, [], 'globals left behind');
  assert.deepEqual(out.listeners[1], out.listeners[0], 'process listeners added');
});

let viteApp;
test('Vite 8: the app builds without warnings and runs from a static host, threaded with COOP/COEP and single-threaded without', async () => {
  viteApp = fixture('vite-app');
  const out = build(['node_modules/vite/bin/vite.js', 'build'], viteApp);
  assert.deepEqual(builtWarnings(out), [], out);
  for (const isolated of [true, false]) {
    const server = await serve(path.join(viteApp, 'dist'), { isolated });
    try { await runApp(server.url, isolated); } finally { await server.close(); }
  }
});

test('Vite 8 dev server (dependencies pre-bundled): the same app runs, with and without COOP/COEP', async () => {
  const { createServer } = await import(pathToFileURL(path.join(viteApp, 'node_modules/vite/dist/node/index.js')).href);
  for (const isolated of [true, false]) {
    const headers = isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
    const server = await createServer({ root: viteApp, configFile: false, logLevel: 'warn', server: { host: '127.0.0.1', port: 5300 + Math.floor(Math.random() * 500), headers } });
    await server.listen();
    try { await runApp(server.resolvedUrls.local[0], isolated); } finally { await server.close(); }
  }
});

test('load failures reject createWisp() with a WispError that says what to fix, never hang', async () => {
  const cases = [
    { fault: '404', isolated: false, query: '', expect: /HTTP 404.*served next to/ },
    { fault: 'mime', isolated: false, query: '', expect: /application\/octet-stream.*application\/wasm/ },
    { fault: null, isolated: false, query: '?threads=true', expect: /Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp/, code: 'unsupported' },
    { fault: 'csp', isolated: true, query: '?timeout=4000', expect: /pthread worker|did not start within 4000 ms/ },
  ];
  for (const c of cases) {
    const server = await serve(path.join(viteApp, 'dist'), c);
    const page = await browser.newPage();
    try {
      const t0 = Date.now();
      await page.goto(server.url + c.query, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30000 });
      const r = await page.evaluate(() => window.__result);
      assert.match(r.error ?? '', /^WispError: /, `${c.fault}: ${JSON.stringify(r)}`);
      assert.equal(r.code, c.code ?? 'load-failed');
      assert.match(r.error, c.expect);
      assert.ok(Date.now() - t0 < 20000, 'rejected promptly');
    } finally {
      await page.close();
      await server.close();
    }
  }
});

test('an import map with no bundler: the installed package served as files', async () => {
  fs.writeFileSync(path.join(viteApp, 'importmap.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script type="importmap">{ "imports": { "three": "./node_modules/three/build/three.module.js",
      "wisp": "./node_modules/wisp/wasm/js/index.js", "wisp/three": "./node_modules/wisp/web/adapters/index.js" } }</script>
    </head><body><script type="module" src="./main.js"></script></body></html>`);
  for (const isolated of [true, false]) {
    const server = await serve(viteApp, { isolated });
    try { await runApp(`${server.url}importmap.html`, isolated); } finally { await server.close(); }
  }
});

test('types resolve from the tarball under moduleResolution bundler and nodenext, for wisp and wisp/three', () => {
  const tsc = path.join(repo, 'tests/node_modules/typescript/bin/tsc');
  fs.writeFileSync(path.join(viteApp, 'usage.ts'), `
    import { createWisp, WispError, type Rope } from 'wisp';
    import { RopeMesh, ClothMesh, SpringBoneChain, ChainDebug, colliderMesh } from 'wisp/three';
    import * as THREE from 'three';
    export async function run(): Promise<number> {
      const wisp = await createWisp({ threads: 'auto', timeout: 10000 });
      const world = wisp.createWorld({ substeps: 8 });
      const rope: Rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 8 });
      const mesh: THREE.Mesh = new RopeMesh(rope, { radius: 0.01 });
      const cloth = new ClothMesh(world.addCloth({ grid: { width: 1, height: 1, resolutionX: 4, resolutionY: 4 } }));
      const chain = new SpringBoneChain(world, [new THREE.Bone(), new THREE.Bone()], { stiffness: 2 });
      const debug: THREE.Group = new ChainDebug(16);
      const shown: THREE.Object3D = colliderMesh({ type: 'capsule', radius: 0.1, radiusTop: 0.05, halfHeight: 0.2 });
      // @ts-expect-error: RopeMesh needs a Rope
      new RopeMesh(cloth);
      try { world.step(-1); } catch (e) { if (e instanceof WispError) return e.code.length; }
      return mesh.id + debug.id + shown.id + chain.bones.length;
    }`);
  for (const [module, resolution] of [['esnext', 'bundler'], ['nodenext', 'nodenext']]) {
    const config = path.join(viteApp, `tsconfig.${resolution}.json`);
    fs.writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module, moduleResolution: resolution, skipLibCheck: false, types: [] }, files: ['usage.ts'] }));
    let out = '';
    try { out = execFileSync(process.execPath, [tsc, '-p', config], { cwd: viteApp, encoding: 'utf8' }); } catch (e) { out = `${e.stdout}${e.stderr}`; }
    assert.equal(out.trim(), '', `moduleResolution ${resolution}:\n${out}`);
  }
});

test('webpack 5 production build: no warnings, runs threaded with COOP/COEP and single-threaded without', async () => {
  const dir = fixture('webpack-app', ['webpack.config.js', 'build.mjs']);
  const out = build(['build.mjs'], dir);
  assert.deepEqual(builtWarnings(out), [], out);
  for (const isolated of [true, false]) {
    const server = await serve(path.join(dir, 'dist'), { isolated });
    try { await runApp(server.url, isolated); } finally { await server.close(); }
  }
});

test('npm run build: web/dist runs the playground from a static host, threaded with COOP/COEP and single-threaded without', async () => {
  const dist = path.join(repo, 'web/dist');
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'run `npm run build` first (scripts/test-all.sh does)');
  for (const isolated of [true, false]) {
    const server = await serve(dist, { isolated });
    const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
    const problems = watch(page);
    try {
      await page.goto(`${server.url}?test=1`, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
      const r = await page.evaluate(() => {
        const before = __app.hash();
        __app.advance(30);
        return { kind: __app.kind, before, after: __app.hash(), isolated: self.crossOriginIsolated };
      });
      assert.equal(r.isolated, isolated);
      assert.equal(r.kind, isolated ? 'mt' : 'st');
      assert.notEqual(r.after, r.before, 'the scene simulates');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
      await server.close();
    }
  }
});
