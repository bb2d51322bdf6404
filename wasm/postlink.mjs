// Run by CMake after linking the threaded build (wasm/CMakeLists.txt).
//   web  <dir>: writes wisp.worker-source.js, the pthread worker script as a string export. The
//               browser loader starts pthread workers from a Blob of it, so no bundler or dev
//               server ever rewrites the classic worker (Vite injects an ES import into it).
//   node <dir>: Emscripten 3.1's Node glue assigns global.Worker; make it a local of the factory
//               so loading the module leaves no globals behind.
import fs from 'node:fs';
import path from 'node:path';

const [env, dir] = process.argv.slice(2);
if (env === 'web') {
  const src = fs.readFileSync(path.join(dir, 'wisp.worker.js'), 'utf8');
  fs.writeFileSync(path.join(dir, 'wisp.worker-source.js'),
    `// Generated from wisp.worker.js by wasm/postlink.mjs: Emscripten's pthread worker.\nexport default ${JSON.stringify(src)};\n`);
} else if (env === 'node') {
  const file = path.join(dir, 'wisp.js');
  const src = fs.readFileSync(file, 'utf8');
  const out = src.replace(/\bglobal\.Worker\s*=/g, 'var Worker=');
  if (out === src && !src.includes('var Worker=')) throw new Error(`${file}: global.Worker assignment not found`);
  fs.writeFileSync(file, out);
} else {
  throw new Error(`usage: postlink.mjs web|node <dir> (got ${env})`);
}
