import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../ws/helpers.ts';

/**
 * The live web view at / of the server, in Debian's headless chromium through playwright-core
 * (as test/backtest/report-html-browser.test.ts). The exchange runs the empty scenario on a
 * manual clock, so only the test moves the book and the clock.
 */
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = Boolean(process.env.CI);
if (!HAVE_CHROMIUM && !IN_CI) console.warn(`live page browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium to run it; CI does)`);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ADMIN = 'ui-test-admin-token';
const SHOTS = join(import.meta.dirname, '../../../out/screenshots');

describe.skipIf(!HAVE_CHROMIUM && !IN_CI)('the live web view in headless Chromium', () => {
  let fx: Fixture;
  let context: BrowserContext | undefined;
  let profile = '';
  let page: Page;
  const errors: string[] = [];
  const foreign: string[] = [];

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) throw new Error(`${CHROMIUM} not found: CI must install it (.ci/run runs apt-get install -y chromium)`);
    fx = await startFixture({ exchange: { adminToken: ADMIN } });
    profile = mkdtempSync(join(tmpdir(), 'perpsim-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    const origin = fx.server.url;
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith(fx.server.wsUrl)) foreign.push(r.url());
    });
    const res = await page.goto(`${origin}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
  });

  afterAll(async () => {
    await context?.close();
    await fx?.close();
    if (profile !== '') rmSync(profile, { recursive: true, force: true });
  });

  /** Places an order for bob over REST, as any client would. */
  async function bobOrder(side: 'B' | 'S', price: string, quantity: number): Promise<void> {
    const res = await fetch(`${fx.server.url}/orders/insert_order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fx.tokens.bob}` },
      body: JSON.stringify({ username: 'bob', symbol: 'BTCUSD-PERP', price, quantity, side, time_in_force: 'GTC', post_only: false }),
    });
    expect(res.status).toBe(200);
  }

  it('signs in with username and password and shows the book change after an order is placed over REST', async () => {
    await page.fill('#username', 'alice');
    await page.fill('#password', 'alice-password');
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#book tr.spread', { timeout: 10_000 });
    expect(await page.$$eval('#book tr.level', (rows) => rows.length)).toBe(0);
    expect(await page.$eval('#symbol', (s) => (s as unknown as { value: string }).value)).toBe('BTCUSD-PERP');

    await bobOrder('B', '49990', 3);
    await bobOrder('S', '50010', 2);
    await page.waitForSelector('#book tr.level[data-side="B"][data-price="49990"][data-qty="3"]', { timeout: 10_000 });
    await page.waitForSelector('#book tr.level[data-side="S"][data-price="50010"][data-qty="2"]', { timeout: 10_000 });
    expect(await page.$eval('#book tr.spread', (r) => r.textContent)).toBe('spread 20');
  });

  it('places an order from the ticket and lists it under open orders and in the book', async () => {
    await page.click('#book tr.level[data-side="B"]'); // a click on a level fills the ticket's price
    expect(await page.$eval('#ticket-price', (i) => (i as unknown as { value: string }).value)).toBe('49990');
    await page.fill('#ticket-qty', '4');
    await page.click('#ticket button[type=submit]');
    await page.waitForSelector('#orders tbody tr', { timeout: 10_000 });
    const cells = await page.$$eval('#orders tbody tr td', (tds) => tds.map((td) => td.textContent));
    expect(cells.slice(1, 6)).toEqual(['buy', '49990', '4', '0', 'NEW']);
    await page.waitForSelector('#book tr.level.mine[data-price="49990"][data-qty="7"]', { timeout: 10_000 });
  });

  it('advances the sim clock when "step" is clicked, through the admin API', async () => {
    await page.fill('#admin-token', ADMIN);
    await page.click('#admin-form button[type=submit]');
    await page.waitForSelector('#clock-status[data-paused]', { timeout: 10_000 });
    const before = BigInt((await page.getAttribute('#sim-clock', 'data-now-ns'))!);
    await page.fill('#step-seconds', '5');
    await page.click('#step');
    // Polled from here, not with page.waitForFunction: its string predicate is evaluated in the
    // page, where the page's CSP (no 'unsafe-eval') refuses it whenever it is not true at once.
    const nowNs = async () => BigInt((await page.getAttribute('#sim-clock', 'data-now-ns'))!);
    await expect.poll(nowNs, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(before + 5_000_000_000n);
    const after = BigInt((await page.getAttribute('#sim-clock', 'data-now-ns'))!);
    expect(after - before).toBe(5_000_000_000n);
    expect(fx.exchange.clock.nowNs).toBe(after);
    // the chart is drawn by lightweight-charts (its canvases), the page made no foreign requests
    expect(await page.$$eval('#candles canvas', (c) => c.length)).toBeGreaterThan(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'live.png'), fullPage: true });
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });
});
