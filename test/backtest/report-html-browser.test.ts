import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportHtml, type ReportHtmlInput } from '../../src/backtest/report-html/index.ts';
import { START_NS, sampleReportInput } from './report-html.fixture.ts';

/**
 * report.html in a real browser: Debian's chromium, headless, driven by playwright-core. The
 * page is served from 127.0.0.1 so every request it makes is seen. CI installs chromium
 * (.ci/run), so there a missing browser is a failure; elsewhere the test is skipped, loudly.
 */
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = Boolean(process.env.CI);
if (!HAVE_CHROMIUM && !IN_CI) {
  console.warn(`report.html browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium to run it; CI does)`);
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
/** Screenshots for people to look at (git-ignored). */
const SHOTS = join(import.meta.dirname, '../../out/screenshots');
const REPORT = sampleReportInput(7200);
const pages: Record<string, string> = {
  '/report.html': renderReportHtml(REPORT),
  '/evil.html': renderReportHtml({ ...sampleReportInput(600), strategy: evil, params: { [evil]: evil } }),
  '/empty.html': renderReportHtml(emptyInput()),
};

function emptyInput(): ReportHtmlInput {
  return {
    title: 'empty',
    strategy: 'idle',
    params: {},
    scenario: 'empty',
    seed: 0,
    stateHash: '0',
    startTime: START_NS.toString(),
    endTime: (START_NS + 60_000_000_000n).toString(),
    metrics: [],
    pnl: { realized: '0', fees: '0', funding: '0', unrealized: '0', net: '0' },
    series: { equity: [], positions: [], prices: [], fills: [] },
  };
}

interface Visit {
  requests: string[];
  errors: string[];
  dialogs: number;
}

describe.skipIf(!HAVE_CHROMIUM && !IN_CI)('report.html in headless Chromium', () => {
  let server: Server;
  let base = '';
  let context: BrowserContext | undefined;
  let profile = '';

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) throw new Error(`${CHROMIUM} not found: CI must install it (.ci/run runs apt-get install -y chromium)`);
    server = createServer((req, res) => {
      const body = pages[req.url ?? ''];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'perpsim-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  });

  afterAll(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    if (profile !== '') rmSync(profile, { recursive: true, force: true });
  });

  /** Loads a page and records its requests, console errors, page errors and dialogs. */
  async function visit(path: string): Promise<Visit & { page: Awaited<ReturnType<BrowserContext['newPage']>> }> {
    const page = await context!.newPage();
    const v: Visit = { requests: [], errors: [], dialogs: 0 };
    page.on('request', (r) => v.requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') v.errors.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => v.errors.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      v.dialogs++;
      void d.dismiss();
    });
    const response = await page.goto(base + path, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    return { ...v, page };
  }

  it('draws the charts with lightweight-charts, one marker per fill, without console errors or network requests', async () => {
    const v = await visit('/report.html');
    await v.page.waitForSelector('#charts[data-ready="1"]', { timeout: 20_000 });
    // In the page (a string: this file is compiled without the DOM's types).
    const info = (await v.page.evaluate(`(() => {
      const r = window.perpsimReport;
      const root = document.getElementById('charts');
      const box = root.getBoundingClientRect();
      return {
        markers: Object.fromEntries(Object.entries(r.markers).map(([k, m]) => [k, m.markers().length])),
        panes: r.chart.panes().length,
        canvases: root.querySelectorAll('canvas').length,
        width: box.width,
        height: box.height,
        attr: root.getAttribute('data-markers'),
      };
    })()`)) as { markers: Record<string, number>; panes: number; canvases: number; width: number; height: number; attr: string };
    // Hovering the chart shows the details box.
    const box = (await v.page.locator('#charts').boundingBox())!;
    await v.page.mouse.move(box.x + box.width / 2, box.y + 100);
    await v.page.waitForSelector('#chart-tip:not([hidden])', { timeout: 5000 });
    const tip = await v.page.$eval('#chart-tip', (el) => el.textContent ?? '');
    mkdirSync(SHOTS, { recursive: true });
    await v.page.screenshot({ path: join(SHOTS, 'report.png'), fullPage: true });
    await v.page.close();
    expect(v.errors).toEqual([]);
    expect(v.requests).toEqual([base + '/report.html']);
    const fills = REPORT.series.fills;
    expect(info.markers).toEqual({
      'BTCUSD-PERP': fills.filter((f) => f.symbol === 'BTCUSD-PERP').length,
      'ETHUSD-PERP': fills.filter((f) => f.symbol === 'ETHUSD-PERP').length,
    });
    expect(Number(info.attr)).toBe(fills.length);
    // two price panes, position, equity, drawdown
    expect(info.panes).toBe(5);
    expect(info.canvases).toBeGreaterThan(5);
    expect(info.width).toBeGreaterThan(300);
    expect(info.height).toBeGreaterThan(600);
    expect(tip).toMatch(/^2025-09-24 \d\d:\d\d:\d\d UTC\n/);
    expect(tip).toContain('equity: ');
  });

  it('shows hostile strategy names and parameters as text and runs nothing', async () => {
    const v = await visit('/evil.html');
    const shown = await v.page.$eval('pre.params', (el) => el.textContent ?? '');
    const header = await v.page.$eval('header', (el) => el.textContent ?? '');
    const injected = await v.page.$$eval('img', (els) => els.length);
    // the page's own three: the data block, the library and the chart script
    const scripts = await v.page.$$eval('script', (els) => els.length);
    await v.page.close();
    expect(JSON.parse(shown)).toEqual({ [evil]: evil });
    expect(header).toContain(`strategy ${evil}`);
    expect(injected).toBe(0);
    expect(scripts).toBe(3);
    expect(v.dialogs).toBe(0);
    expect(v.errors).toEqual([]);
    expect(v.requests).toEqual([base + '/evil.html']);
  });

  it('renders a run with no samples as messages, without errors', async () => {
    const v = await visit('/empty.html');
    const empties = await v.page.$$eval('[data-chart-empty]', (els) => els.map((e) => e.getAttribute('data-chart-empty')));
    await v.page.close();
    expect(empties).toEqual(['equity', 'metrics']);
    expect(v.errors).toEqual([]);
  });
});
