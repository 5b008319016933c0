// gui_smoke.test.js — `gpuplan gui` under xvfb-run draws views and writes a screenshot of its
// OpenGL framebuffer (non-blank); without a display it exits 3 with a clear message.
//
// Usage: node gui_smoke.test.js <gpuplan binary> <scenario.json> <screenshot dir>
'use strict';

const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { decodePng, checkNotBlank } = require('../browser/png');

function main() {
  const [gpuplan, scenario, shots] = process.argv.slice(2);
  if (!gpuplan || !scenario || !shots) throw new Error('usage: node gui_smoke.test.js <gpuplan> <scenario.json> <screenshot dir>');
  fs.mkdirSync(shots, { recursive: true });

  // 1. No display: exit 3 and a message that says what to do.
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const headless = spawnSync(gpuplan, ['gui'], { env, encoding: 'utf8', timeout: 30_000 });
  if (headless.status !== 3 || !/no display/.test(headless.stderr) || !/xvfb-run/.test(headless.stderr))
    throw new Error(`without a display: expected exit 3 naming the problem, got ${headless.status}: ${headless.stderr.trim()}`);

  // 2. Under xvfb: two views, each a screenshot read back from the GL framebuffer.
  const lines = [];
  for (const [view, extra] of [['catalog', []], ['costs', ['--scenario-file', scenario]]]) {
    const file = path.join(shots, `gui-${view}.png`);
    fs.rmSync(file, { force: true });
    const run = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', gpuplan, 'gui', '--view', view, ...extra,
      '--size', '1280x800', '--screenshot', file, '--frames', '5'], { encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`gpuplan gui --view ${view} exited ${run.status}: ${(run.stderr || '').trim()}`);
    const png = fs.readFileSync(file);
    const image = decodePng(png);
    if (image.width !== 1280 || image.height !== 800) throw new Error(`${file}: ${image.width}x${image.height}, expected 1280x800`);
    const stats = checkNotBlank(png, `gui ${view}`, file);
    lines.push(`${view}: ${stats.distinct} colours, ${stats.changesPerRow.toFixed(0)} changes/row (${file})`);
  }
  return `no display → exit 3 ("${headless.stderr.trim().slice(0, 70)}..."); ${lines.join('; ')}`;
}

try {
  console.log(`PASS gui.desktop_smoke: ${main()}`);
} catch (error) {
  console.log(`FAIL gui.desktop_smoke: ${error.message}`);
  process.exit(1);
}
