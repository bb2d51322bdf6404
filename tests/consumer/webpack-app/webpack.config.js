// A plain webpack 5 production build: no loaders or plugins for wisp.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  context: fileURLToPath(new URL('.', import.meta.url)),
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), clean: true },
  performance: { hints: false },  // the .wasm files are larger than webpack's 244 KiB advice
};
