// Drives real VS Code (code-server in headless Chromium) through the FlowCabal
// extension. Started by scripts/vscode-e2e.sh, which installs code-server,
// packages and installs the .vsix, prepares the workspace and passes:
//   E2E_URL        code-server URL with ?folder=…
//   E2E_FILE       workspace-relative .flow file to open (see the script for its content)
//   E2E_ARTIFACTS  folder for screenshots
// Every step is reported "ok"/"FAIL" with a screenshot; the last line is
// "N passed, N failed" and the exit code is the number of failures.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Locator, type Page } from 'playwright-core';

const url = mustEnv('E2E_URL');
const file = mustEnv('E2E_FILE');
const artifacts = mustEnv('E2E_ARTIFACTS');
const chromiumPath = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const stepTimeout = Number(process.env.E2E_STEP_TIMEOUT_MS ?? 45000);

function mustEnv(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') {
    throw new Error(`${name} is not set (run scripts/vscode-e2e.sh)`);
  }
  return v;
}

let passed = 0;
let failed = 0;
let shotNo = 0;
const t0 = Date.now();

function say(line: string): void {
  process.stdout.write(`[e2e ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);
}

async function shot(page: Page, name: string): Promise<void> {
  shotNo++;
  const f = path.join(artifacts, `${String(shotNo).padStart(2, '0')}-${name}.png`);
  try {
    await page.screenshot({ path: f });
  } catch (err) {
    say(`screenshot ${f} failed: ${String(err)}`);
  }
}

async function step(page: Page, name: string, fn: () => Promise<string | undefined>): Promise<boolean> {
  const start = Date.now();
  try {
    const note = await fn();
    passed++;
    say(`ok   ${name} (${Date.now() - start} ms)${note ? ': ' + note : ''}`);
    await shot(page, name);
    return true;
  } catch (err) {
    failed++;
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    say(`FAIL ${name} (${Date.now() - start} ms): ${msg}`);
    await shot(page, `${name}-FAIL`);
    return false;
  }
}

/** An error that stops polling at once. */
class Fatal extends Error {}

/** Polls fn until it returns a value other than undefined/false, or throws with `what`. */
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeout = stepTimeout): Promise<T> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) {
        return v;
      }
    } catch (err) {
      if (err instanceof Fatal) {
        throw err;
      }
      last = err;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The token span in the editor whose text is exactly `text` (nth match, 0-based). */
function token(page: Page, text: string, nth = 0): Locator {
  return page
    .locator('.monaco-editor .view-lines .view-line span span')
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .nth(nth);
}

async function toastsText(page: Page): Promise<string> {
  const t = page.locator('.notifications-toasts .notification-toast');
  const n = await t.count();
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push((await t.nth(i).innerText()).replace(/\s+/g, ' '));
  }
  return out.join(' | ');
}

async function runPalette(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input').first();
  for (let attempt = 1; ; attempt++) {
    // Hovers and tooltips can hold the keyboard: move away, focus the editor.
    await page.mouse.move(700, 700);
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(`>${title}`, { timeout: 5000 });
      break;
    } catch (err) {
      if (attempt >= 3) {
        throw new Error(`cannot open the command palette: ${String(err)}`);
      }
    }
  }
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10000 });
  await page.keyboard.press('Enter');
}

async function main(): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(stepTimeout);

  await step(page, 'workbench-loads', async () => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });
    return undefined;
  });

  const opened = await step(page, 'open-flow-file', async () => {
    await until('quick open', async () => {
      await page.keyboard.press('Control+P');
      return page.locator('.quick-input-widget input').isVisible();
    }, 20000);
    await page.locator('.quick-input-widget input').fill(path.basename(file));
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(file) }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: path.basename(file) }).waitFor();
    await token(page, 'premise').waitFor();
    const lang = await page.locator('.statusbar-item[id="status.editor.mode"]').innerText();
    if (!/flow/i.test(lang)) {
      throw new Error(`language mode is "${lang}", not the flow language`);
    }
    return `language mode "${lang.trim()}"`;
  });
  if (!opened) {
    await finish(browser);
    return;
  }

  await step(page, 'api-key-secret', async () => {
    const key = `e2e-secret-${process.pid}-${Date.now()}`;
    await runPalette(page, 'FlowCabal: Set API Key');
    const input = page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor({ state: 'visible' });
    await input.fill(key);
    await page.keyboard.press('Enter');
    await until('the "API key stored" message', async () => /API key stored/.test(await toastsText(page)));
    const logs = process.env.E2E_LOGS;
    const settings = process.env.E2E_SETTINGS;
    if (logs === undefined || settings === undefined) {
      return 'stored (logs not checked: E2E_LOGS/E2E_SETTINGS unset)';
    }
    // The restarted server announces itself with the key set …
    await until('the log line of the restarted server', async () => grep(logs, '(API key from secret storage)').length > 0);
    // … and the key is nowhere in logs or settings.
    const leaks = [...grep(logs, key), ...grep(settings, key)];
    if (leaks.length > 0) {
      throw new Error(`API key found in ${leaks.join(', ')}`);
    }
    // Clear the toast so later steps read only their own, then back to the editor.
    await runPalette(page, 'Notifications: Clear All Notifications');
    await until('toasts cleared', async () => (await page.locator('.notifications-toasts .notification-toast').count()) === 0);
    await page.locator('.tab', { hasText: path.basename(file) }).first().click();
    return 'stored in secret storage; not in logs or settings';
  });


  await step(page, 'highlighting', async () => {
    const color = async (l: Locator): Promise<string> => l.evaluate((e) => (globalThis as unknown as { getComputedStyle(el: unknown): { color: string } }).getComputedStyle(e).color);
    const kw = await color(token(page, 'node'));
    const name = await color(token(page, 'premise'));
    const comment = await color(page.locator('.monaco-editor .view-line span span', { hasText: '# e2e sample' }).first());
    const prose = await color(page.locator('.monaco-editor .view-line span span', { hasText: 'Summarise' }).first());
    const ref = await color(token(page, 'premise', 1));
    const distinct = new Set([kw, comment, prose, ref]);
    if (distinct.size < 4) {
      throw new Error(`expected 4 distinct colours for keyword/comment/prose/reference, got ${JSON.stringify({ kw, name, comment, prose, ref })}`);
    }
    return `keyword ${kw}, comment ${comment}, prose ${prose}, {{ref}} ${ref}`;
  });

  await step(page, 'status-bar', async () => {
    const item = page.locator('.statusbar-item', { hasText: 'FlowCabal' }).first();
    await item.waitFor();
    return (await item.innerText()).trim();
  });

  await step(page, 'diagnostic-squiggle', async () => {
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: stepTimeout });
    const n = await page.locator('.monaco-editor .squiggly-error').count();
    // The Problems count in the status bar names the same error.
    return `${n} error squiggle(s)`;
  });

  await step(page, 'hover', async () => {
    const ref = token(page, 'premise', 1);
    await ref.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)').first();
    await hover.waitFor({ state: 'visible' });
    const text = await until('hover text', async () => {
      const t = (await hover.innerText()).trim();
      return t.length > 0 ? t : undefined;
    });
    if (!/Where the story stands|premise/.test(text)) {
      throw new Error(`hover does not describe the upstream node: ${JSON.stringify(text.slice(0, 200))}`);
    }
    return JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 120));
  });
  await page.mouse.move(5, 450);
  await page.keyboard.press('Escape');

  await step(page, 'run-node-lens', async () => {
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run node' }).first();
    await lens.waitFor({ state: 'visible' });
    // The lens of premise (the first node) says what its run would send
    // and cost; the estimate is made in the background and the lenses
    // redrawn once it is.
    const estimated = /Run node · [\d,]+ tok in \+ ≤[\d,]+ out · ≈\$[\d.]+/;
    const title = await until('the Run node lens to show its estimate', async () => {
      const t = (await lens.innerText()).trim();
      return estimated.test(t) ? t : undefined;
    });
    const all = await page.locator('.codelens-decoration a').allInnerTexts();
    return `${title} (all: ${all.join(' · ')})`;
  });

  await step(page, 'quick-fix', async () => {
    const broken = token(page, 'premis');
    await broken.click();
    await page.keyboard.press('Control+Period');
    const rows = page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ state: 'visible' });
    const labels = (await rows.allInnerTexts()).map((t) => t.trim());
    const i = labels.findIndex((t) => /premise/.test(t));
    if (i < 0) {
      throw new Error(`no quick fix naming premise among ${JSON.stringify(labels)}`);
    }
    // The list starts on its first action: walk down to ours and accept it.
    for (let k = 0; k < i; k++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await until('the broken reference to be fixed', async () => (await token(page, 'premis').count()) === 0);
    await until('the error squiggle to go', async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0);
    return `applied "${labels[i]}" (offered: ${labels.join(' | ')})`;
  });
  await page.keyboard.press('Escape');

  await step(page, 'run-node-executes', async () => {
    // Success: the output document (.md) opens through window/showDocument
    // and the node's lens turns into a state lens. A server without the
    // runner answers an error, which the extension shows as a toast.
    const statusSeen = new Set<string>();
    const status = page.locator('.statusbar-item', { hasText: 'FlowCabal' }).first();
    let outcome: { ok: boolean; what: string } = { ok: false, what: 'not clicked' };
    // A lens drawn before the quick-fix carries the old document version and
    // the server refuses it ("the document changed"), as it should: like an
    // author, click again once VS Code has redrawn the lenses.
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.mouse.move(5, 450);
      await page.locator('.codelens-decoration a', { hasText: 'Run node' }).first().click();
      outcome = await until('an output document or an error toast', async () => {
        statusSeen.add((await status.innerText().catch(() => '')).trim());
        const tabs = await page.locator('.tab').allInnerTexts();
        const md = tabs.find((t) => /\.md\b/.test(t));
        if (md) {
          return { ok: true, what: `output document opened: ${md.trim()}` };
        }
        const toast = await toastsText(page);
        if (/FlowCabal/.test(toast) && /failed|error|not available|cannot/i.test(toast)) {
          return { ok: false, what: `toast: ${toast}` };
        }
        return undefined;
      }, 90000);
      if (outcome.ok || !/document changed/.test(outcome.what)) {
        break;
      }
      say(`     (attempt ${attempt}: ${outcome.what}; clicking the redrawn lens)`);
      await runPalette(page, 'Notifications: Clear All Notifications');
      await page.locator('.tab', { hasText: path.basename(file) }).first().click();
      await new Promise((r) => setTimeout(r, 1500));
    }
    if (!outcome.ok) {
      throw new Error(`the server could not run the node (flowcabal.runNode): ${outcome.what}`);
    }
    await shot(page, 'run-node-output');
    await page.locator('.tab', { hasText: path.basename(file) }).first().click();
    const stateLens = await until('a state lens (✓ / ⚠ / ❄ / ↻) on the workflow', async () => {
      statusSeen.add((await status.innerText().catch(() => '')).trim());
      const texts = await page.locator('.codelens-decoration a').allInnerTexts();
      return texts.find((t) => /[✓⚠❄↻]/.test(t));
    }, 90000);
    return `${outcome.what}; lens "${stateLens}"; status bar: ${[...statusSeen].filter((x) => x !== '').join(' → ')}`;
  });
  // Back to the workflow for the remaining steps.
  await page.keyboard.press('Escape');
  await page.locator('.tab', { hasText: path.basename(file) }).first().click();

  await step(page, 'settings-reach-server', async () => {
    // The writer model is "scripted-writer" in flowcabal.toml and
    // "writer-from-vscode-settings" in the user settings; the stand-in names
    // the model it was asked for in its reply.
    await page.locator('.tab', { hasText: path.basename(file) }).first().click();
    await page.mouse.move(5, 450);
    const lenses = page.locator('.codelens-decoration a', { hasText: 'Run node' });
    await until('two Run node lenses', async () => (await lenses.count()) >= 2);
    await lenses.nth(1).click();
    await until('draft.md opened', async () => (await page.locator('.tab', { hasText: 'draft.md' }).count()) > 0, 90000);
    const ws = process.env.E2E_WORKSPACE;
    if (ws === undefined) {
      throw new Error('E2E_WORKSPACE is not set');
    }
    const out = path.join(ws, '.flowcabal', 'outputs', 'workflows', 'e2e', 'draft.md');
    const text = await until(`the reply in ${out}`, async () => {
      const t = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
      return /model/.test(t) ? t : undefined;
    });
    if (!text.includes('writer-from-vscode-settings')) {
      throw new Error(`the server did not use flowcabal.models.writer.model from the settings: ${text.replace(/\s+/g, ' ').slice(0, 400)}`);
    }
    return 'draft ran with model "writer-from-vscode-settings" (settings over flowcabal.toml)';
  });

  await step(page, 'graph-panel', async () => {
    await page.locator('.tab', { hasText: path.basename(file) }).first().click();
    await runPalette(page, 'FlowCabal: Show Workflow Graph');
    const svgText = await until('an SVG in the graph webview', async () => {
      for (const f of page.frames()) {
        const n = await f.locator('svg').count().catch(() => 0);
        if (n > 0) {
          return ((await f.locator('svg').first().textContent().catch(() => '')) ?? '') || '<svg>';
        }
      }
      const toast = await toastsText(page);
      if (/graph/i.test(toast) && /fail|cannot|error|open a \.flow/i.test(toast)) {
        throw new Fatal(`graph not available: ${toast}`);
      }
      return undefined;
    });
    if (!/premise/.test(svgText)) {
      throw new Error(`graph does not name node premise: ${svgText.slice(0, 200)}`);
    }
    // The panel follows the cursor: put it in node draft.
    await token(page, 'draft').click();
    await until('the graph to outline node draft', async () => {
      for (const f of page.frames()) {
        if ((await f.locator('body[data-focus="draft"]').count().catch(() => 0)) > 0) {
          return true;
        }
      }
      return undefined;
    });
    return `${svgText.replace(/\s+/g, ' ').slice(0, 100)}; follows the cursor to draft`;
  });

  await step(page, 'prose-document', async () => {
    // A manuscript chapter is synced to the server for Role C's checks; the
    // .flow-only features must not fail on it.
    await runPalette(page, 'Notifications: Clear All Notifications');
    await until('quick open', async () => {
      await page.keyboard.press('Control+P');
      return page.locator('.quick-input-widget .quick-input-box input').first().isVisible();
    }, 20000);
    await page.locator('.quick-input-widget .quick-input-box input').first().fill('chapter-01/content.md');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'content.md' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'content.md' }).waitFor();
    const word = page.locator('.monaco-editor .view-lines .view-line span span').nth(3);
    await word.hover();
    await new Promise((r) => setTimeout(r, 3000));
    const toast = await toastsText(page);
    if (/FlowCabal|failed/i.test(toast)) {
      throw new Error(`an error on a prose document: ${toast}`);
    }
    const problems = (await page.locator('.statusbar-item[id="status.problems"]').innerText().catch(() => '')).replace(/\s+/g, ' ');
    return `opened with no error; problems: ${problems.trim()}`;
  });

  await step(page, 'auto-close-braces', async () => {
    await page.locator('.tab', { hasText: path.basename(file) }).first().click();
    await token(page, 'draft').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' {{');
    const line = await until('"}}" closed automatically', async () => {
      const texts = await page.locator('.monaco-editor .view-line').allInnerTexts();
      return texts.map((t) => t.replace(/\u00a0/g, ' ')).find((t) => t.includes('node draft { {{}}'));
    }, 10000);
    await page.keyboard.press('Control+Z');
    return JSON.stringify(line.trim());
  });

  await finish(browser);
}

/** Files under dir (recursively) whose content contains needle. */
function grep(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.isFile() && fs.readFileSync(p).includes(needle)) {
        hits.push(p);
      }
    }
  };
  if (fs.statSync(dir).isDirectory()) {
    walk(dir);
  } else if (fs.readFileSync(dir).includes(needle)) {
    hits.push(dir);
  }
  return hits;
}

async function finish(browser: { close(): Promise<void> }): Promise<void> {
  await browser.close();
  say(`screenshots in ${artifacts}`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  say(`e2e crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.stdout.write(`${passed} passed, ${failed + 1} failed\n`);
  process.exitCode = 1;
});
