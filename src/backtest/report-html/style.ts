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
.empty{color:var(--muted);font-style:italic;padding:28px 0;text-align:center;border:1px dashed var(--line);border-radius:8px;margin:8px 0}
.idle{color:var(--muted);margin:8px 2px}
.panes{color:var(--muted);font-size:12px;margin:4px 0}
.chart-wrap{position:relative}
.charts{width:100%;height:900px}
.pane-title{position:absolute;left:6px;z-index:2;font-size:11.5px;font-weight:600;color:var(--ink);background:rgba(255,255,255,.8);padding:0 4px;border-radius:3px;pointer-events:none}
.tip{position:absolute;top:22px;right:84px;z-index:3;margin:0;background:rgba(255,255,255,.94);border:1px solid var(--line);border-radius:6px;padding:6px 8px;font-size:11.5px;pointer-events:none;max-width:70%}
th.r{text-align:right}
tr.total td{font-weight:600;border-top:2px solid var(--line)}
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
