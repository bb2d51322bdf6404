// Headless Chromium from Debian's package, driven by playwright-core (never downloads a browser).
import { chromium } from 'playwright-core';

// Software WebGL through SwiftShader, and no background network traffic (the test machine has
// no internet; without these flags Chromium keeps trying to reach its services).
// Not --disable-gpu: with it screenshots show a hole in the WebGL canvas under DOM overlays.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-default-apps', '--disable-extensions', '--disable-dev-shm-usage',
];

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60000,
  });
}

// Records everything that should fail a page test.
export function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning' || m.type() === 'assert') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('crash', () => problems.push('page crashed'));
  return problems;
}
