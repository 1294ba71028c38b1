/** The page's stylesheet (inline: the report is one file and loads nothing). */
export const REPORT_CSS = `
:root{--ink:#1f2937;--muted:#6b7280;--faint:#9ca3af;--line:#e5e7eb;--bg:#f6f7f9;--card:#fff;
--blue:#2563eb;--green:#059669;--red:#dc2626;--violet:#7c3aed;--slate:#475569;--amber:#d97706}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1040px;margin:0 auto;padding:28px 20px 40px}
header h1{font-size:24px;margin:0 0 4px;overflow-wrap:anywhere}
.sub{color:var(--muted);margin:0}
.sub b{color:var(--ink);font-weight:600}
.mono,code,pre,td.num{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin:20px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:21px;font-weight:600;margin-top:2px;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.card .v small{font-size:13px;color:var(--muted);font-weight:400;margin-left:4px}
.pos-v{color:var(--green)}.neg-v{color:var(--red)}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:16px 0}
section h2{font-size:16px;margin:0 0 2px;overflow-wrap:anywhere}
section h3{font-size:13px;margin:14px 0 0;color:var(--muted);font-weight:600}
.note{color:var(--muted);font-size:12.5px;margin:0 0 6px}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;color:var(--muted);font-size:12.5px;margin:6px 0 0}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend svg{width:18px;height:12px}
.swatch{display:inline-block;width:16px;height:3px;border-radius:2px}
.empty{color:var(--muted);font-style:italic;padding:28px 0;text-align:center;border:1px dashed var(--line);border-radius:8px;margin:8px 0}
svg.chart{display:block;width:100%;height:auto;margin-top:6px}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:11.5px;fill:var(--muted)}
.grid line{stroke:#eef0f3;stroke-width:1}
.axis .tick{stroke:var(--faint)}
.axis .date{fill:var(--faint);font-size:10.5px}
.axis .axis-title{fill:var(--ink);font-size:12px}
.frame{fill:none;stroke:var(--line)}
.equity{fill:none;stroke:var(--blue);stroke-width:1.6;stroke-linejoin:round}
.equity-area{fill:var(--blue);opacity:.08}
.equity-dot,.price-dot{fill:var(--blue)}
.drawdown{fill:none;stroke:var(--red);stroke-width:1.3;stroke-linejoin:round}
.drawdown-area{fill:var(--red);opacity:.14}
.position{fill:none;stroke:var(--violet);stroke-width:1.3}
.position-area.pos{fill:var(--green);opacity:.16}.position-area.neg{fill:var(--red);opacity:.16}
.price{fill:none;stroke:var(--slate);stroke-width:1.2;stroke-linejoin:round}
.ref{stroke:var(--faint);stroke-dasharray:4 4}
.ref-zero{stroke:var(--faint)}
.ref-label{fill:var(--muted);font-size:11px}
.highlight{fill:var(--red);stroke:#fff;stroke-width:1.5}
.highlight-label{fill:var(--red);font-weight:600}
.fill-buy-maker{fill:var(--green);stroke:var(--green)}
.fill-buy-taker{fill:#fff;stroke:var(--green);stroke-width:1.4}
.fill-sell-maker{fill:var(--red);stroke:var(--red)}
.fill-sell-taker{fill:#fff;stroke:var(--red);stroke-width:1.4}
.bar.up{fill:var(--green)}.bar.down{fill:var(--red)}.bar.total{fill:var(--blue)}
.connector{stroke:var(--faint);stroke-dasharray:3 3}
.zero{stroke:var(--muted)}
.bar-value{fill:var(--ink);font-weight:600;font-size:12px}
.bar-label{fill:var(--ink);font-size:12.5px}
table{border-collapse:collapse;width:100%;margin-top:8px;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:baseline}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.04em}
td.num{text-align:right;white-space:nowrap}
td.key{color:var(--faint);font-size:12px}
tr:last-child td{border-bottom:0}
pre{background:#f3f4f6;border-radius:8px;padding:10px 12px;margin:8px 0 0;overflow:auto;font-size:12.5px;white-space:pre-wrap;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:8px 0 0}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
footer{color:var(--faint);font-size:12px;text-align:center;margin-top:24px}
@media print{body{background:#fff}section,.card{break-inside:avoid}}
`;
