import { escapeHtml } from './escape.ts';

/**
 * The opening of a self-contained perpsim page (report.html, sweep.html) up to `<body>`: a
 * Content-Security-Policy that forbids every network request (the pages open offline and must
 * never call out), inline styles, and inline scripts only when the page has charts to run.
 */
export function pageHead(title: string, css: string, options: { inlineScripts: boolean }): string[] {
  const scripts = options.inlineScripts ? " script-src 'unsafe-inline';" : '';
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';${scripts} img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${css}</style>`,
    '</head><body><main>',
  ];
}
