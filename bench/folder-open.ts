/**
 * `npx tsx bench/folder-open.ts [--files N] [--runs N]`: how soon the web UI shows the first rows
 * of a folder of N files (default 10,000), and where the time goes. It starts what the UI
 * end-to-end tests stand on (the local service with the demo, `asset-sync sync --ui`, Chromium;
 * needs `npm run build` and `npm run build:renderer`), writes the folder, opens it at once (as the
 * end-to-end test does, while the daemon finds the new files), and then, once it is quiet, each run:
 * - the server side: `POST /api/listFiles` from Node, to its last byte, and the answer's size;
 * - the page side: the click on the folder until its first row is in the document, split by the
 *   browser's resource timing of the answer it came with (the first page, where the UI asks for
 *   one) into waiting for it, reading it, and parsing plus the first render (the rest).
 * Prints medians. Timings, not assertions: a figure for a report, taken on a quiet machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { EngineStatus } from '../shared/engine.js';
import { callApi, eventually, navButton, openWhenSynced, startUiWorld } from '../test/e2e/ui-world.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, runs: { type: 'string', default: '7' } } });
const FILES = Number(values.files);
const RUNS = Number(values.runs);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

interface PageRun {
  clickToRow: number;
  clickToRequest: number;
  waiting: number;
  reading: number;
  afterAnswer: number;
  bytes: number;
}

/** Opens the workspace's top in Files, then clicks Frames: the click until its first row, timed in the page. */
async function openFrames(page: Page): Promise<PageRun> {
  await navButton(page, 'Files').click();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button').first().click();
  await page.getByRole('button', { name: 'Folder Frames' }).first().waitFor();
  await page.evaluate('performance.clearResourceTimings()');
  const run = (await page.evaluate(`new Promise((resolve) => {
    const shown = () => [...document.querySelectorAll('th[scope=row]')].some((th) => th.textContent.includes('frame-00000.tmp'));
    const button = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === 'Folder Frames');
    const t0 = performance.now();
    const done = () => {
      const t1 = performance.now();
      // The answer the first row came with: the first page where the UI asks for one.
      const answers = performance.getEntriesByType('resource').filter((e) => /\\/api\\/listFiles(First)?$/.test(e.name) && e.responseEnd > 0 && e.responseEnd <= t1);
      const r = answers.at(0);
      resolve({
        clickToRow: t1 - t0,
        clickToRequest: r ? r.requestStart - t0 : NaN,
        waiting: r ? r.responseStart - r.requestStart : NaN,
        reading: r ? r.responseEnd - r.responseStart : NaN,
        afterAnswer: r ? t1 - r.responseEnd : NaN,
        bytes: r ? r.encodedBodySize : NaN,
      });
    };
    new MutationObserver((_, observer) => { if (shown()) { observer.disconnect(); done(); } }).observe(document.body, { childList: true, subtree: true });
    button.click();
  })`)) as PageRun;
  await page.getByRole('rowheader', { name: /frame-00000\.tmp/ }).waitFor();
  return run;
}

const world = await startUiWorld();
try {
  const { page } = world;
  await openWhenSynced(world);
  const workspaceId = (await callApi<EngineStatus>(page, 'getStatus')).workspaces[0]?.workspaceId ?? '';
  const frames = join(world.root, 'Spring Campaign', 'Frames');
  mkdirSync(frames);
  // Ignored names (*.tmp): listed as only on this computer, never uploaded, as in the e2e test.
  for (let i = 0; i < FILES; i += 1) writeFileSync(join(frames, `frame-${String(i).padStart(5, '0')}.tmp`), String(i));
  // As the UI end-to-end test opens it: at once, while the daemon finds the new files.
  const scanning = await openFrames(page);
  await eventually('the scan of the new folder', () => page.getByRole('banner').getByTestId('header-state').textContent(), (t) => t === 'Up to date');

  const origin = new URL(world.url).origin;
  const server: Array<{ ms: number; bytes: number }> = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/listFiles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.token}` },
      body: JSON.stringify({ workspaceId, folder: 'Frames' }),
    });
    const body = await res.arrayBuffer();
    server.push({ ms: performance.now() - t0, bytes: body.byteLength });
  }

  const runs: PageRun[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await openFrames(page));

  const parse = (await page.evaluate(`(async () => {
    const token = sessionStorage.getItem('asset-sync-token');
    const text = await (await fetch('/api/listFiles', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify({ workspaceId: ${JSON.stringify(workspaceId)}, folder: 'Frames' }) })).text();
    const times = [];
    for (let i = 0; i < 7; i += 1) { const t0 = performance.now(); JSON.parse(text); times.push(performance.now() - t0); }
    return times.sort((a, b) => a - b)[3];
  })()`)) as number;

  const f = (n: number) => n.toFixed(0).padStart(5);
  const out = [
    `folder of ${FILES.toLocaleString('en')} files, ${RUNS} runs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `server: listFiles answered in ${f(median(server.map((s) => s.ms)))} ms (median; ${server.map((s) => s.ms.toFixed(0)).join(', ')}), ${(median(server.map((s) => s.bytes)) / 1024).toFixed(0)} KiB`,
    `page:   click → first row ${f(scanning.clickToRow)} ms while the daemon finds the new files (one run: waiting for the answer ${scanning.waiting.toFixed(0)} ms)`,
    `page:   click → first row ${f(median(runs.map((r) => r.clickToRow)))} ms once it is quiet (median; ${runs.map((r) => r.clickToRow.toFixed(0)).join(', ')})`,
    `        click → request   ${f(median(runs.map((r) => r.clickToRequest)))} ms`,
    `        waiting for answer ${f(median(runs.map((r) => r.waiting)))} ms`,
    `        reading answer    ${f(median(runs.map((r) => r.reading)))} ms (${(median(runs.map((r) => r.bytes)) / 1024).toFixed(0)} KiB)`,
    `        answer → first row ${f(median(runs.map((r) => r.afterAnswer)))} ms (JSON.parse of the whole answer alone: ${parse.toFixed(1)} ms)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await world.close();
}
