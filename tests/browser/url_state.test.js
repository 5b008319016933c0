// url_state.test.js — the URL is the state: editing the scenario through the test hook
// updates the address (history.replaceState) and reloading that address restores the same
// results; a broken link shows a message, keeps what it could read and falls back to defaults
// for the rest; a link pasted into a tab already showing the planner is opened there; Back and
// Forward walk through the scenarios.
//
// Usage: node url_state.test.js <web output dir> <scenario.json> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');

h.runTest('browser.url_state', async () => {
  const [webDir, scenarioFile, screenshotDir] = process.argv.slice(2);
  if (!webDir || !scenarioFile || !screenshotDir) throw new Error('usage: node url_state.test.js <web dir> <scenario.json> <screenshot dir>');
  h.requireBuilt(webDir);
  const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/?view=costs`);
    await h.waitReady(page);

    // 1. Edit through the hook: the URL must follow, with the view and the scenario.
    const error = await page.evaluate((s) => window.gpuplan.setScenario(s), scenario);
    if (error) throw new Error(`setScenario refused ${scenarioFile}: ${error}`);
    const edited = await page.evaluate(() => window.gpuplan.getState());
    await page.evaluate(() => window.gpuplan.linkSettled());
    // The state is in the fragment (never sent to a server): #view=costs&z=<deflated scenario>.
    const url = new URL(page.url());
    if (url.search) throw new Error(`the state leaked into the query string: ${page.url()}`);
    const fragment = new URLSearchParams(url.hash.slice(1));
    if (fragment.get('view') !== 'costs') throw new Error(`URL lost the view: ${page.url()}`);
    const param = fragment.get('z');
    if (!param) throw new Error(`URL has no scenario after an edit: ${page.url()}`);
    if (!/^[A-Za-z0-9_-]+$/.test(param)) throw new Error(`scenario parameter is not base64url: ${param.slice(0, 40)}...`);
    // Independently decoded here (base64url → raw deflate → JSON, with node's zlib), not
    // through the app's codec.
    const decoded = JSON.parse(require('zlib').inflateRawSync(Buffer.from(param, 'base64url')).toString('utf8'));
    if (JSON.stringify(sortKeys(decoded)) !== JSON.stringify(sortKeys(scenario)))
      throw new Error('the URL encodes a different scenario than the one set');
    if (!edited.results || Object.keys(edited.results).length === 0) throw new Error('no results after setScenario');

    // 2. Reload that exact URL: same scenario, same results, same view.
    const link = page.url();
    const reloaded = await h.newPage(browser);
    await reloaded.goto(link);
    const restored = await h.waitReady(reloaded);
    if (restored.view !== 'costs') throw new Error(`reloaded link opened ${restored.view}`);
    if (JSON.stringify(restored.results) !== JSON.stringify(edited.results))
      throw new Error('reloading the link gave different results');
    if (page.errors.length || reloaded.errors.length) throw new Error(`errors: first page ${page.errors.join("; ")}; reloaded ${reloaded.errors.join("; ")}`);

    // 3. A broken link: a bad scenario and an unknown view. The notice names both; the theme,
    //    which was readable, is kept; view and scenario fall back to defaults.
    const bad = await h.newPage(browser);
    await bad.goto(`${server.origin}/?view=nonsense&theme=dark&scenario=%21%21not-base64`);
    const state = await h.waitReady(bad);
    const notice = (await bad.locator('#notice').isVisible()) ? await bad.locator('#notice-text').innerText() : '';
    if (!/could not be used/.test(notice) || !/nonsense/.test(notice) || !/scenario/.test(notice))
      throw new Error(`broken link: expected a notice naming the view and the scenario, got ${JSON.stringify(notice)}`);
    if (state.view !== 'catalog') throw new Error(`broken link: expected the default view, got ${state.view}`);
    if (!state.dark_theme) throw new Error('broken link: the readable theme=dark was lost');
    const file = path.join(screenshotDir, 'bad-url.png');
    h.saveScreenshot(await bad.screenshot(), file);
    // 4. A scenario that decodes but does not validate: the field named in words.
    const invalid = Buffer.from(JSON.stringify({ schema: 'gpuplan.scenario/1', fleet: { hours: -5 } })).toString('base64url');
    const inv = await h.newPage(browser);
    await inv.goto(`${server.origin}/?view=costs&scenario=${invalid}`);
    const invState = await h.waitReady(inv);
    const invNotice = await inv.locator('#notice-text').innerText();
    if (!/The scenario in the link: hours: got -5/.test(invNotice) || /--|\$\./.test(invNotice))
      throw new Error(`invalid scenario: the notice does not name the hours in words: ${invNotice}`);
    if (invState.view !== 'costs') throw new Error('invalid scenario: the readable view was lost');
    if (bad.errors.length || inv.errors.length) throw new Error(`errors: ${[...bad.errors, ...inv.errors].join('; ')}`);

    // 5. A link pasted into the address bar of the tab already showing the planner: only the
    //    fragment changes, so the page does not reload (hashchange). The planner shows the
    //    pasted link's view and scenario, and the address then holds that (Copy link copies it).
    const pastedFile = path.join(path.dirname(scenarioFile), 'r1-serve-llama-70b.json');
    const pasted = JSON.parse(fs.readFileSync(pastedFile, 'utf8'));
    const pastedLink = `${server.origin}/#view=inference&scenario=${Buffer.from(JSON.stringify(pasted)).toString('base64url')}`;
    await page.goto(pastedLink);  // same document: a fragment navigation, as pasting such a link is
    try {
      await page.waitForFunction(() => window.gpuplan.getState().view === 'inference', null, { timeout: 20000 });
    } catch (_) {
      throw new Error(`a pasted link was ignored: the view stayed ${(await page.evaluate(() => window.gpuplan.getState())).view}`);
    }
    const afterPaste = await page.evaluate(() => window.gpuplan.getState());
    if (JSON.stringify(sortKeys(afterPaste.scenario)) !== JSON.stringify(sortKeys(pasted)))
      throw new Error('a pasted link: the view changed but the scenario on screen is not the pasted one');
    await page.evaluate(() => window.gpuplan.linkSettled());
    const shownZ = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('z');
    const shown = shownZ && JSON.parse(require('zlib').inflateRawSync(Buffer.from(shownZ, 'base64url')).toString('utf8'));
    if (!shown || JSON.stringify(sortKeys(shown)) !== JSON.stringify(sortKeys(pasted)))
      throw new Error('after a pasted link, the address (what Copy link copies) is not what is on screen');
    // A pasted link with a bad part: the readable scenario applies, the notice names the view.
    await page.goto(`${server.origin}/#view=nonsense&scenario=${Buffer.from(JSON.stringify(scenario)).toString('base64url')}`);
    await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 20000 });
    const pastedNotice = await page.locator('#notice-text').innerText();
    const afterBad = await page.evaluate(() => window.gpuplan.getState());
    if (!/nonsense/.test(pastedNotice)) throw new Error(`a pasted link with a bad view: the notice does not name it: ${pastedNotice}`);
    if (JSON.stringify(sortKeys(afterBad.scenario)) !== JSON.stringify(sortKeys(scenario)))
      throw new Error('a pasted link with a bad view: its readable scenario was not applied');
    if (page.errors.length) throw new Error(`errors after pasting links: ${page.errors.join('; ')}`);

    // 6. Back and Forward walk through the scenarios: each new scenario is a history entry
    //    (a view change is not), and going back reopens the scenario that was on screen.
    const other = JSON.parse(fs.readFileSync(path.join(path.dirname(scenarioFile), 'p2-reserved-1y.json'), 'utf8'));
    const otherError = await page.evaluate((s) => window.gpuplan.setScenario(s), other);
    if (otherError) throw new Error(`setScenario refused p2-reserved-1y.json: ${otherError}`);
    await page.evaluate(() => window.gpuplan.linkSettled());
    await page.evaluate(() => window.gpuplan.setView('costs'));
    await h.settle(page, 4, 'view change');
    const entries = await page.evaluate(() => history.length);
    await page.goBack();
    await waitScenario(page, scenario, 'Back');
    await page.goForward();
    await waitScenario(page, other, 'Forward');
    if (await page.evaluate(() => history.length) !== entries) throw new Error('Back and Forward added history entries');
    if (page.errors.length) throw new Error(`errors after Back and Forward: ${page.errors.join('; ')}`);
    return `edit → URL (${param.length} chars) → reload gave identical results; broken link notice: ` +
      `${JSON.stringify(notice.split('\n')[1] || notice)}; a pasted link opened in the same tab (view, scenario, address); ` +
      `Back and Forward walked the scenarios; screenshot ${file}`;
  } finally {
    await browser.close();
    server.close();
  }
});

// Waits until the planner shows `expected` as its scenario (after Back or Forward).
async function waitScenario(page, expected, what) {
  const want = JSON.stringify(sortKeys(expected));
  for (let waited = 0; waited < 20000; waited += 100) {
    const shown = await page.evaluate(() => window.gpuplan.getState().scenario);
    if (JSON.stringify(sortKeys(shown)) === want) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}: the planner did not show the scenario of that history entry`);
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  return value;
}
