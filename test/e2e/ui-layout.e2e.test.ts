/**
 * The UI in Chromium at the sizes people use it, with the names people give files: nothing may
 * widen the page past a 400 px window, and a large window shows a table's values on one line.
 * And with the keyboard alone: the focus is never dropped on the floor.
 * (ui-world.ts: the local service, the headless daemon, Chromium.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../shared/ipc.js';
import type { EngineStatus } from '../../shared/engine.js';
import { PATIENCE, callApi, eventually, navButton, openWhenSynced, startUiWorld, type UiWorld } from './ui-world.js';

/** 140 characters and not one space: the kind of name an export tool makes. */
const LONG = `Final_final_v27_APPROVED_by_client_Spring-Campaign-2026_Hero_Banner_Homepage_Desktop_and_Mobile_variants_localized_DE_FR_IT_ES_NL_CMYK.psd`;

let world: UiWorld;
let page: Page;

const nav = (name: string | RegExp) => navButton(page, name);

// In-page code is written as strings: this project's Node type-check has no DOM.

/** What a user sees of the page's width: the page must not scroll sideways, the header must be whole. */
function pageFit(p: Page): Promise<{ pageWidth: number; window: number; toggleRight: number; gapUnderNav: number }> {
  return p.evaluate(`(() => {
    const navBox = document.querySelector('nav[aria-label="Main"]').getBoundingClientRect();
    const mainBox = document.querySelector('main').getBoundingClientRect();
    const toggle = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Dark theme');
    return {
      pageWidth: document.documentElement.scrollWidth,
      window: window.innerWidth,
      toggleRight: toggle.getBoundingClientRect().right,
      gapUnderNav: mainBox.top - navBox.bottom,
    };
  })()`);
}

/** The line boxes of an element's text: how many lines it takes, and where each line starts. */
function linesOf(p: Page, selector: string): Promise<{ lines: number; lefts: number[] }> {
  return p.evaluate(`((selector) => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(selector));
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const tops = [...new Set(rects.map((r) => Math.round(r.top)))];
    const lefts = tops.map((top) => Math.round(Math.min(...rects.filter((r) => Math.round(r.top) === top).map((r) => r.left))));
    return { lines: tops.length, lefts: [...new Set(lefts)] };
  })(${JSON.stringify(selector)})`);
}

beforeAll(async () => {
  world = await startUiWorld();
  page = world.page;
  await openWhenSynced(world);
  const workspace = join(world.root, 'Spring Campaign');
  mkdirSync(join(workspace, 'Long'), { recursive: true });
  writeFileSync(join(workspace, LONG), 'a long name');
  for (const n of [1, 2, 10, 11]) writeFileSync(join(workspace, `README ${n}.txt`), `readme ${n}`);
  // The colleague asks for a review of the long-named file once it is on the service.
  const workspaceId = (await callApi<EngineStatus>(page, 'getStatus')).workspaces[0]!.workspaceId;
  const uploaded = async () => (await callApi<FileEntry[]>(page, 'listFiles', { workspaceId, folder: '' })).find((e) => e.name === LONG && e.state === 'synced')?.assetId ?? null;
  const assetId = await eventually('the long-named file on the service', uploaded, (id) => id !== null);
  const { colleague, user } = world.service;
  const asked = await colleague.api('POST', `/workspaces/assets/${assetId}/reviewRequests/${user.userId}`, { body: { message: 'Please_check_every_variant_before_Friday_the_PL_headline_overflows_on_mobile' } });
  if (asked.status !== 201) throw new Error(`The review request was refused (${asked.status})`);
}, 120_000);

afterAll(async () => {
  await world?.close();
}, 60_000);

describe('the UI at 400 px, with a 140-character name', () => {
  beforeAll(() => page.setViewportSize({ width: 400, height: 800 }));

  const fits = async (name: string) => {
    const fit = await pageFit(page);
    await world.shot(`narrow-${name}`);
    expect(fit.pageWidth).toBeLessThanOrEqual(fit.window);
    expect(fit.toggleRight).toBeLessThanOrEqual(fit.window);
    // The navigation row is as tall as its buttons: no empty band between it and the screen.
    expect(fit.gapUnderNav).toBeLessThanOrEqual(1);
  };

  it('fits the Status screen', async () => {
    await nav('Status').click();
    await page.getByTestId('overall-state').waitFor(PATIENCE);
    await fits('status');
  });

  it('fits the Files screen: the table scrolls by itself, the name wraps', async () => {
    await nav('Files').click();
    const name = page.getByRole('button', { name: `${LONG}: versions` });
    await name.waitFor(PATIENCE);
    await fits('files');
    expect((await name.boundingBox())!.width).toBeLessThan(400);
  });

  it('fits the Versions screen, its heading included', async () => {
    await page.getByRole('button', { name: `${LONG}: versions` }).click();
    await page.getByRole('heading', { name: `Versions of ${LONG}` }).waitFor(PATIENCE);
    await page.getByRole('listitem', { name: /^Version 1/ }).waitFor(PATIENCE);
    await fits('versions');
  });

  it('fits the Reviews screen: the card shows the whole name, wrapped, and its Open button names it', async () => {
    await nav(/^Reviews/).click();
    const card = page.getByRole('listitem', { name: LONG });
    const open = card.getByRole('button', { name: new RegExp(`^Open (version \\d+|the current version) of ${LONG.replace(/[.]/g, '\\.')}$`) });
    await open.waitFor(PATIENCE);
    await fits('reviews');
    expect(await card.getByText(LONG, { exact: true }).isVisible()).toBe(true);
    expect((await open.boundingBox())!.width).toBeLessThan(400);
  });

  it('fits the Settings screen', async () => {
    await nav('Settings').click();
    await page.getByRole('heading', { name: 'Workspaces and folders' }).waitFor(PATIENCE);
    await fits('settings');
  });
});

describe('the UI at 1920 px', () => {
  beforeAll(() => page.setViewportSize({ width: 1920, height: 1080 }));

  it('gives the Files table the width, so its values stay on one line', async () => {
    await nav('Files').click();
    await page.getByRole('rowheader', { name: /README 1\.txt/ }).waitFor(PATIENCE);
    await world.shot('wide-files');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /README 1\.txt/ }) });
    expect(await row.getByRole('cell').nth(2).textContent()).toMatch(/\d{4}/);
    await row.getByRole('cell').nth(2).evaluate((cell) => cell.setAttribute('data-probe', 'modified'));
    expect((await linesOf(page, '[data-probe="modified"]')).lines).toBe(1);
    expect((await page.locator('main').boundingBox())!.width).toBeGreaterThan(1400);
  });

  it('lists README 2 before README 10', async () => {
    const readmes = (await page.getByRole('button', { name: /^README \d+\.txt: versions$/ }).allTextContents()).map((t) => t.trim());
    expect(readmes).toEqual(['README 1.txt', 'README 2.txt', 'README 10.txt', 'README 11.txt']);
  });

  it('lines a long name that wraps up on the left, like a link', async () => {
    await page.setViewportSize({ width: 1200, height: 860 });
    const name = await linesOf(page, `button[aria-label="${LONG}: versions"]`);
    expect(name.lines).toBeGreaterThan(1);
    expect(name.lefts).toHaveLength(1);
  });
});

describe('the UI with the keyboard', () => {
  /** The focused element as a screen reader names it (roughly: its label, else its text). */
  const focused = (): Promise<{ name: string; current: string | null }> =>
    page.evaluate(`(() => {
      const e = document.activeElement;
      return { name: e.getAttribute('aria-label') || e.textContent, current: e.getAttribute('aria-current') };
    })()`);

  it('puts the focus on the folder a user opens with Enter', async () => {
    await page.setViewportSize({ width: 1200, height: 860 });
    await nav('Files').click();
    await page.getByRole('button', { name: 'Folder Brand' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused, PATIENCE).toEqual({ name: 'Brand', current: 'location' });
    await page.getByRole('button', { name: 'Folder Logos' }).waitFor(PATIENCE);
    await page.getByRole('button', { name: 'Folder Logos' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused, PATIENCE).toEqual({ name: 'Logos', current: 'location' });
  });

  it('gives the focus back to "Make current" when the question is closed with Escape or Cancel', async () => {
    await page.getByRole('button', { name: 'logo-mono.svg: versions' }).click();
    const opener = page.getByRole('button', { name: 'Make version 1 current' });
    await opener.waitFor(PATIENCE);
    await opener.focus();
    await page.keyboard.press('Enter');
    expect(await focused()).toEqual({ name: 'Yes, make current', current: null });
    await world.shot('keyboard-restore-question');
    await page.keyboard.press('Escape');
    expect(await focused()).toEqual({ name: 'Make version 1 current', current: null });

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ name: 'Cancel', current: null });
    await page.keyboard.press('Enter');
    expect(await focused()).toEqual({ name: 'Make version 1 current', current: null });
  });
});

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the controls’ edges', () => {
  /** Each visible button and field: its border colour, its own background and the one behind it. */
  const edges = (): Promise<Array<{ what: string; border: string; inside: string; behind: string }>> =>
    page.evaluate(`(() => {
      const opaque = (e) => {
        for (let at = e; at; at = at.parentElement) {
          const bg = getComputedStyle(at).backgroundColor;
          if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
        }
        return getComputedStyle(document.documentElement).backgroundColor;
      };
      return [...document.querySelectorAll('button, input:not([type=checkbox]), select, textarea')]
        .filter((e) => e.getBoundingClientRect().width > 0 && getComputedStyle(e).borderTopStyle !== 'none' && parseFloat(getComputedStyle(e).borderTopWidth) > 0)
        .map((e) => ({ what: e.getAttribute('aria-label') || e.textContent || e.id, border: getComputedStyle(e).borderTopColor, inside: opaque(e), behind: opaque(e.parentElement) }));
    })()`);

  for (const scheme of ['light', 'dark'] as const) {
    it(`stand out at 3:1 or more in the ${scheme} theme`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      const screens = [
        { name: 'Status', shown: page.getByRole('button', { name: 'Pause sync' }) },
        { name: 'Settings', shown: page.getByRole('button', { name: 'Save workspaces' }) },
        { name: /^Reviews/, shown: page.getByRole('button', { name: 'Approve' }).first() },
      ];
      for (const screen of screens) {
        await nav(screen.name).click();
        await screen.shown.waitFor(PATIENCE);
        const controls = (await edges()).filter((c) => c.border !== c.inside || c.border !== c.behind);
        expect(controls.length).toBeGreaterThan(0);
        for (const c of controls) {
          // A primary button is its own colour: its edge is the fill against what is behind it.
          const edge = c.border === c.inside ? c.inside : c.border;
          expect({ what: c.what, ratio: contrast(edge, c.behind) >= 3 }).toEqual({ what: c.what, ratio: true });
        }
      }
      await world.shot(`controls-${scheme}`);
    });
  }
});

describe('loading the page', () => {
  it('asks for nothing that is not there: the tab shows the app icon, and no request fails', async () => {
    const failed: string[] = [];
    const icons: Array<{ url: string; status: number; type: string | undefined }> = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      if (/favicon/.test(response.url())) icons.push({ url: new URL(response.url()).pathname, status: response.status(), type: response.headers()['content-type'] });
    });
    page.on('requestfailed', (request) => {
      // The event stream is cut by the reload itself.
      if (!request.url().endsWith('/api/events')) failed.push(`failed ${request.url()}`);
    });
    await page.reload();
    await page.getByTestId('header-state').filter({ hasText: 'Up to date' }).waitFor(PATIENCE);
    await expect.poll(() => icons.length, PATIENCE).toBeGreaterThan(0);
    expect(icons).toEqual([{ url: '/favicon.svg', status: 200, type: 'image/svg+xml' }]);
    expect(failed).toEqual([]);
  });
});
