/**
 * Pictures of the main screens for the README: the demo (the local service with its real files,
 * the headless daemon, Debian's Chromium, as the UI end-to-end tests run them) photographed in
 * the light theme and written to docs/images/<screen>.png, reduced to a palette so they stay small.
 * Run with `npm run screenshots` (it builds the UI first).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { PATIENCE, REPO, eventually, startUiWorld } from '../test/e2e/ui-world.js';

const OUT = join(REPO, 'docs', 'images');
const VIEWPORT = { width: 1200, height: 760 };

/**
 * Every picture in view has arrived, and every video poster has its frame or has stopped loading
 * (idle: a `preload="metadata"` video may stop short of a frame), so the shot shows the work.
 */
const picturesLoaded = (page: Page) =>
  // A function, not a string: a string polled in the page would be compiled there, which the CSP forbids.
  page.waitForFunction(
    () => {
      type Media = { complete?: boolean; readyState?: number; error?: unknown; networkState?: number };
      const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<Media> } }).document;
      const images = Array.from(doc.querySelectorAll('main img, [role=dialog] img'));
      const videos = Array.from(doc.querySelectorAll('main video, [role=dialog] video'));
      return images.every((i) => i.complete) && videos.every((v) => (v.readyState ?? 0) >= 2 || Boolean(v.error) || v.networkState === 1);
    },
    undefined,
    PATIENCE,
  );

async function shoot(page: Page, name: string): Promise<void> {
  await picturesLoaded(page);
  const png = await page.screenshot({ fullPage: false });
  const small = await sharp(png).png({ palette: true, quality: 90, compressionLevel: 9 }).toBuffer();
  writeFileSync(join(OUT, `${name}.png`), small);
  console.log(`docs/images/${name}.png: ${Math.round(small.length / 1024)} KB`);
}

const world = await startUiWorld({ viewport: VIEWPORT });
const { page } = world;
const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const openFolder = async (...names: string[]) => {
  await nav('Files').click();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button').first().click();
  for (const name of names) await page.getByRole('button', { name: `Folder ${name}` }).first().click();
};
try {
  mkdirSync(OUT, { recursive: true });
  await page.goto(world.url);
  await eventually('the first sync', () => page.getByTestId('header-state').textContent(), (text) => text === 'Up to date');

  await openFolder('Campaigns', 'Spring', 'Social');
  await page.getByRole('button', { name: 'Grid' }).click();
  await page.getByRole('listitem', { name: 'hero.psd' }).locator('img').waitFor(PATIENCE);
  await shoot(page, 'files-grid');

  await page.getByRole('button', { name: 'Preview hero.psd' }).click();
  await page.getByRole('dialog').getByRole('img', { name: /^hero\.psd/ }).waitFor(PATIENCE);
  await shoot(page, 'preview');
  await page.keyboard.press('Escape');

  await openFolder('Brand', 'Logos');
  await page.getByRole('button', { name: 'List' }).click();
  await page.getByRole('button', { name: 'logo-mark.png: versions' }).click();
  await page.getByRole('listitem', { name: /^Version 1/ }).waitFor(PATIENCE);
  await shoot(page, 'versions');

  await page.getByRole('button', { name: 'Compare versions' }).click();
  await page.getByLabel('Left').selectOption({ label: 'Version 1' });
  await page.getByLabel('Right').selectOption({ label: 'Version 3 (current)' });
  await page.getByText('Slider', { exact: true }).click();
  await page.getByTestId('overlay-stage').waitFor(PATIENCE);
  await shoot(page, 'compare');

  await nav('Status').click();
  await page.getByRole('button', { name: /uploaded version/ }).first().waitFor(PATIENCE);
  await shoot(page, 'status');
} finally {
  await world.close();
}
