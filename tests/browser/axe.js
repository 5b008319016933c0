// axe.js — an automated accessibility audit of a page with axe-core (from npm, installed by
// scripts/setup.sh beside playwright-core): axe is loaded into the page and every frame of it
// (an embedded planner is an iframe), then run from the top document, which audits the frames
// too. Returns the violations of the given impacts ("serious", "critical" by default), each as
// one line: rule, impact, what it means, where.
'use strict';

const path = require('path');

const AXE_SCRIPT = path.join(__dirname, 'node_modules', 'axe-core', 'axe.min.js');

async function audit(page, impacts = ['serious', 'critical']) {
  for (const frame of page.frames()) await frame.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))));
  return violations.filter((v) => impacts.includes(v.impact)).map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.where.join(', ')}`);
}

module.exports = { audit };
