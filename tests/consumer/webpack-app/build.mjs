// Builds with webpack's Node API (no webpack-cli) and copies index.html next to the bundle.
import fs from 'node:fs';
import webpack from 'webpack';
import config from './webpack.config.js';

const stats = await new Promise((resolve, reject) => webpack(config, (err, s) => (err ? reject(err) : resolve(s))));
const info = stats.toJson({ all: false, errors: true, warnings: true });
for (const w of info.warnings) console.log(`WARNING ${w.message}`);
for (const e of info.errors) console.log(`ERROR ${e.message}`);
if (stats.hasErrors()) process.exit(1);
fs.writeFileSync(new URL('./dist/index.html', import.meta.url),
  fs.readFileSync(new URL('./index.html', import.meta.url), 'utf8').replace('type="module" src="./main.js"', 'defer src="./main.js"'));  // webpack's bundle is a classic script
