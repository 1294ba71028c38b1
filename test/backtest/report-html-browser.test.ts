import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
const pages: Record<string, string> = {
  '/report.html': renderReportHtml(sampleReportInput(7200)),
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

  it('loads without console errors or network requests and draws every chart', async () => {
    const v = await visit('/report.html');
    const charts = await v.page.$$eval('svg.chart', (svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        // Drawn marks: paths with a non-empty box (lines, areas, markers) and the PnL bars.
        const marks = [...svg.querySelectorAll('path, polyline, rect.bar')].filter((el) => {
          const b = (el as unknown as { getBBox(): { width: number; height: number } }).getBBox();
          return b.width > 0 && b.height > 0;
        });
        const points = [...svg.querySelectorAll('path')].reduce((n, p) => n + (p.getAttribute('d')?.length ?? 0), 0);
        return { id: svg.getAttribute('data-chart'), width: box.width, height: box.height, marks: marks.length, points };
      }),
    );
    const scripts = await v.page.$$eval('script', (els) => els.length);
    await v.page.close();
    expect(v.errors).toEqual([]);
    expect(v.requests).toEqual([base + '/report.html']);
    expect(scripts).toBe(0);
    expect(charts.map((c) => c.id)).toEqual(['equity', 'drawdown', 'pnl', 'price-0', 'position-0', 'price-1', 'position-1']);
    for (const c of charts) {
      expect(c.width, `${c.id} width`).toBeGreaterThan(300);
      expect(c.height, `${c.id} height`).toBeGreaterThan(100);
      expect(c.marks, `${c.id} marks`).toBeGreaterThan(0);
    }
    // The price chart carries the line and the four kinds of fill markers.
    expect(charts.find((c) => c.id === 'price-0')!.marks).toBeGreaterThanOrEqual(5);
  });

  it('shows hostile strategy names and parameters as text and runs nothing', async () => {
    const v = await visit('/evil.html');
    const shown = await v.page.$eval('pre.params', (el) => el.textContent ?? '');
    const header = await v.page.$eval('header', (el) => el.textContent ?? '');
    const injected = await v.page.$$eval('img, script', (els) => els.length);
    await v.page.close();
    expect(JSON.parse(shown)).toEqual({ [evil]: evil });
    expect(header).toContain(`strategy ${evil}`);
    expect(injected).toBe(0);
    expect(v.dialogs).toBe(0);
    expect(v.errors).toEqual([]);
    expect(v.requests).toEqual([base + '/evil.html']);
  });

  it('renders a run with no samples as messages, without errors', async () => {
    const v = await visit('/empty.html');
    const empties = await v.page.$$eval('[data-chart-empty]', (els) => els.map((e) => e.getAttribute('data-chart-empty')));
    await v.page.close();
    expect(empties).toEqual(['equity', 'drawdown', 'metrics']);
    expect(v.errors).toEqual([]);
  });
});
