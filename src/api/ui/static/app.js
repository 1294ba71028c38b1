// The live web view of `perpsim serve`. It talks to the exchange only through what any client
// has: the public REST endpoints, the two websockets (market data, orders) and, with the admin
// token the operator types in, the admin API for the clock. Every piece of server text is put
// into the page with textContent, never as HTML.
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var WS_BASE = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host;
  var BOOK_DEPTH = 12;
  var TAPE_ROWS = 40;
  var S = { user: null, token: null, admin: null, symbol: null, instruments: [], md: null, ow: null, orders: new Map(), book: null, nowNs: null, tapeReady: false, rid: 10 };

  // ---- helpers ----------------------------------------------------------------------------
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function row(cells, cls) { var tr = el('tr', undefined, cls); cells.forEach(function (c) { tr.appendChild(typeof c === 'string' ? el('td', c) : c); }); return tr; }
  function fill(tbody, rows) { tbody.replaceChildren.apply(tbody, rows); }
  function detail(json, status) {
    if (json && Array.isArray(json.detail)) return json.detail.map(function (d) { return (d.loc || []).slice(1).join('.') + ': ' + d.msg; }).join('; ');
    if (json && typeof json.detail === 'string') return json.detail;
    return 'HTTP ' + status;
  }
  async function api(method, path, body, bearer) {
    var headers = { 'content-type': 'application/json' };
    if (bearer) headers.authorization = 'Bearer ' + bearer;
    var r = await fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
    var text = await r.text();
    var json = null;
    try { json = text === '' ? null : JSON.parse(text); } catch (e) { json = null; }
    if (!r.ok) throw new Error(detail(json, r.status));
    return json;
  }
  function nsOf(ts, tn) { return BigInt(ts) * 1000000000n + BigInt(tn || 0); }
  function iso(ns) { return new Date(Number(ns / 1000000n)).toISOString(); }
  function clockText(ns) { var t = iso(ns); return t.slice(0, 10) + ' ' + t.slice(11, 23); }
  function setNow(ns) {
    if (S.nowNs !== null && ns < S.nowNs) return;
    S.nowNs = ns;
    $('sim-clock').textContent = clockText(ns);
    $('sim-clock').setAttribute('data-now-ns', String(ns));
  }
  function status(id, text, bad) { var p = $(id); p.textContent = text; p.classList.toggle('bad', Boolean(bad)); }
  function fmt(x) { var n = Number(x); return Number.isFinite(n) ? (Math.abs(n) >= 1000 ? n.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(Number(n.toPrecision(8)))) : String(x); }

  // ---- candles (public REST, polled) --------------------------------------------------------
  var LC = window.LightweightCharts;
  var chart = LC.createChart($('candles'), {
    autoSize: true,
    layout: { background: { color: '#0f172a' }, textColor: '#cbd5e1', attributionLogo: false },
    grid: { vertLines: { color: '#1e293b' }, horzLines: { color: '#1e293b' } },
    timeScale: { timeVisible: true, secondsVisible: true, borderColor: '#334155' },
    rightPriceScale: { borderColor: '#334155' },
  });
  var candleSeries = chart.addSeries(LC.CandlestickSeries, { upColor: '#10b981', downColor: '#ef4444', wickUpColor: '#10b981', wickDownColor: '#ef4444', borderVisible: false });
  var volumeSeries = chart.addSeries(LC.HistogramSeries, { priceScaleId: 'vol', priceFormat: { type: 'volume' }, color: '#334155', lastValueVisible: false, priceLineVisible: false });
  chart.priceScale('vol').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  var SECONDS = { '1s': 1, '5s': 5, '1m': 60, '5m': 300, '15m': 900, '1h': 3600 };
  var candleCount = 0;
  async function loadCandles() {
    if (!S.symbol || S.nowNs === null) return;
    var interval = $('interval').value;
    var span = BigInt(SECONDS[interval] * 300) * 1000000000n;
    var start = S.nowNs > span ? S.nowNs - span : 0n;
    try {
      var res = await api('POST', '/candle/historical_candles', { market: S.symbol, interval: interval, start_time: iso(start), end_time: iso(S.nowNs) });
      var cs = res.candles.map(function (c) { return { time: Date.parse(c.timestamp) / 1000, open: +c.open, high: +c.high, low: +c.low, close: +c.close, volume: +c.volume }; });
      candleSeries.setData(cs);
      volumeSeries.setData(cs.map(function (c) { return { time: c.time, value: c.volume, color: c.close >= c.open ? '#065f46' : '#7f1d1d' }; }));
      if (candleCount === 0 && cs.length > 0) chart.timeScale().fitContent();
      candleCount = cs.length;
      $('candles').setAttribute('data-candles', String(cs.length));
    } catch (e) { /* the next poll retries */ }
  }
  $('interval').addEventListener('change', function () { candleCount = 0; loadCandles(); });

  // ---- market data websocket: book, stats, tape -----------------------------------------------
  function renderBook() {
    var b = S.book;
    var tbody = $('book').tBodies[0];
    if (!b) { fill(tbody, []); return; }
    var asks = b.a.slice(0, BOOK_DEPTH);
    var bids = b.b.slice(0, BOOK_DEPTH);
    var cum = function (levels) { var t = 0; return levels.map(function (l) { t += l.q; return t; }); };
    var ca = cum(asks);
    var cb = cum(bids);
    var max = Math.max(1, ca[ca.length - 1] || 0, cb[cb.length - 1] || 0);
    var mine = new Set();
    S.orders.forEach(function (o) { if (o.s === S.symbol) mine.add(o.d + o.p); });
    var line = function (side, l, total) {
      var tr = row([l.p, String(l.q), String(total)], 'level ' + (side === 'S' ? 'ask' : 'bid') + (mine.has(side + l.p) ? ' mine' : ''));
      tr.setAttribute('data-side', side);
      tr.setAttribute('data-price', l.p);
      tr.setAttribute('data-qty', String(l.q));
      tr.style.setProperty('--depth', (100 * total / max).toFixed(1) + '%');
      tr.addEventListener('click', function () { $('ticket-price').value = l.p; });
      return tr;
    };
    var rows = asks.map(function (l, i) { return line('S', l, ca[i]); }).reverse();
    var spread = asks.length > 0 && bids.length > 0 ? 'spread ' + fmt(+asks[0].p - +bids[0].p) : asks.length + bids.length === 0 ? 'empty book' : 'one-sided book';
    var mid = el('td', spread); mid.colSpan = 3;
    rows.push(row([mid], 'spread'));
    bids.forEach(function (l, i) { rows.push(line('B', l, cb[i])); });
    fill(tbody, rows);
  }
  function onStats(m) {
    $('t-last').textContent = m.p || '–';
    $('t-open').textContent = m.o || '–';
    $('t-high').textContent = m.h || '–';
    $('t-low').textContent = m.l || '–';
    $('t-volume').textContent = String(m.v);
    var ch = m.p && m.o && +m.o !== 0 ? (100 * (+m.p - +m.o)) / +m.o : null;
    $('t-change').textContent = ch === null ? '–' : (ch >= 0 ? '+' : '') + ch.toFixed(2) + '%';
    $('t-change').className = ch === null ? '' : ch >= 0 ? 'up' : 'down';
    // The first stats after subscribing repeats the last print; every later one is a new trade.
    if (!S.tapeReady) { S.tapeReady = true; return; }
    if (!m.p) return;
    var b = S.book;
    var mid = b && b.b.length > 0 && b.a.length > 0 ? (+b.b[0].p + +b.a[0].p) / 2 : null;
    var tr = row([clockText(nsOf(m.ts, m.tn)).slice(11), m.p, String(m.q)], mid === null ? '' : +m.p >= mid ? 'up' : 'down');
    var tbody = $('tape').tBodies[0];
    tbody.insertBefore(tr, tbody.firstChild);
    while (tbody.rows.length > TAPE_ROWS) tbody.deleteRow(tbody.rows.length - 1);
  }
  function connectMarketData() {
    if (S.md) S.md.close();
    var ws = new WebSocket(WS_BASE + '/md/ws');
    S.md = ws;
    ws.onopen = function () { ws.send(JSON.stringify({ request_id: 1, type: 'login', username: S.user, token: S.token })); };
    ws.onmessage = function (ev) {
      var m = JSON.parse(ev.data);
      if (m.ts !== undefined) setNow(nsOf(m.ts, m.tn));
      if (m.request_id === 1 && m.result) subscribe(S.symbol);
      else if (m.error) status('account-status', 'market data: ' + m.error.message, true);
      else if (m.t === '2' && m.s === S.symbol) { S.book = m; renderBook(); $('book-note').hidden = true; }
      else if (m.t === 's' && m.s === S.symbol) onStats(m);
    };
    ws.onclose = function () { if (S.md === ws) status('account-status', 'market data disconnected; sign in again to reconnect', true); };
  }
  function subscribe(symbol) {
    S.tapeReady = false;
    S.book = null;
    renderBook();
    fill($('tape').tBodies[0], []);
    S.md.send(JSON.stringify({ request_id: ++S.rid, type: 'subscribe', symbol: symbol, level: 'LEVEL_2' }));
  }
  $('symbol').addEventListener('change', function () {
    var old = S.symbol;
    S.symbol = $('symbol').value;
    if (S.md && S.md.readyState === 1) { S.md.send(JSON.stringify({ request_id: ++S.rid, type: 'unsubscribe', symbol: old })); subscribe(S.symbol); }
    candleCount = 0;
    loadCandles();
  });

  // ---- order websocket, open orders, positions ----------------------------------------------
  var LIVE = { NEW: true, PARTIALLY_FILLED: true, PENDING: true };
  function keepOrder(o) { if (o.rq > 0 && LIVE[o.o]) S.orders.set(o.oid, o); else S.orders.delete(o.oid); }
  function renderOrders() {
    var rows = [];
    S.orders.forEach(function (o) {
      var cancel = el('button', 'cancel');
      cancel.addEventListener('click', function () {
        api('POST', '/orders/cancel_order', { username: S.user, order_id: o.oid }, S.token).catch(function (e) { status('account-status', 'cancel: ' + e.message, true); });
      });
      var td = el('td'); td.appendChild(cancel);
      rows.push(row([o.oid.slice(-8), o.d === 'B' ? 'buy' : 'sell', o.p, String(o.q), String(o.xq), o.o, td], o.d === 'B' ? 'up' : 'down'));
    });
    fill($('orders').tBodies[0], rows);
    renderBook();
  }
  function connectOrders() {
    if (S.ow) S.ow.close();
    var ws = new WebSocket(WS_BASE + '/orders');
    S.ow = ws;
    ws.onopen = function () { ws.send(JSON.stringify({ rid: 1, t: 'a', u: S.user, k: S.token })); };
    ws.onmessage = function (ev) {
      var m = JSON.parse(ev.data);
      if (m.rid === 1 && m.res) { S.orders.clear(); (m.res.o || []).forEach(keepOrder); renderOrders(); return; }
      if (m.err) { status('account-status', 'orders: ' + m.err.msg, true); return; }
      if (m.o && 'npfcxdjr'.indexOf(m.t) >= 0) {
        keepOrder(m.o);
        renderOrders();
        if (m.t === 'j') status('account-status', 'order rejected: ' + m.r + (m.txt ? ' (' + m.txt + ')' : ''), true);
        if (m.t === 'p' || m.t === 'f') refreshPositions();
      }
    };
  }
  async function refreshPositions() {
    if (!S.user) return;
    try {
      var r = await api('GET', '/risk_manager/risk_snapshot?username=' + encodeURIComponent(S.user), undefined, S.token);
      if (!r) return;
      fill($('positions').tBodies[0], r.positions.filter(function (p) { return +p.net_quantity !== 0 || +p.realized_pnl !== 0; }).map(function (p) {
        return row([p.symbol, p.net_quantity, p.mark_price, fmt(p.unrealized_pnl), fmt(p.realized_pnl)], +p.net_quantity > 0 ? 'up' : +p.net_quantity < 0 ? 'down' : '');
      }));
      var sum = $('summary');
      sum.replaceChildren();
      [['equity', r.total_equity], ['cash', r.cash_balance], ['unrealized', r.total_unrealized_pnl], ['available margin', r.available_initial_margin]].forEach(function (kv) {
        var s = el('span'); s.appendChild(el('small', kv[0])); s.appendChild(el('b', fmt(kv[1]))); sum.appendChild(s);
      });
    } catch (e) { status('account-status', 'positions: ' + e.message, true); }
  }

  $('login-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var user = $('username').value.trim();
    try {
      var t = await api('POST', '/auth/get_user_token', { username: user, password: $('password').value, expiration_seconds: 86400 });
      S.user = user;
      S.token = t.token;
      S.instruments = (await api('GET', '/auth/instruments', undefined, S.token)).instruments;
      var sel = $('symbol');
      sel.replaceChildren.apply(sel, S.instruments.map(function (i) { return el('option', i.symbol); }));
      sel.disabled = false;
      S.symbol = S.symbol && S.instruments.some(function (i) { return i.symbol === S.symbol; }) ? S.symbol : S.instruments[0] && S.instruments[0].symbol;
      sel.value = S.symbol;
      $('who').textContent = 'signed in as ' + user;
      $('account').hidden = false;
      $('password').value = '';
      status('account-status', '');
      connectMarketData();
      connectOrders();
      refreshPositions();
    } catch (e) { status('account-status', 'sign in: ' + e.message, true); }
  });

  $('ticket').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var side = document.querySelector('input[name=side]:checked').value;
    var body = { username: S.user, symbol: S.symbol, price: $('ticket-price').value.trim(), quantity: Number($('ticket-qty').value), side: side, time_in_force: $('ticket-tif').value, post_only: $('ticket-post').checked };
    try {
      var r = await api('POST', '/orders/insert_order', body, S.token);
      status('account-status', 'order ' + r.order_id + ' sent');
    } catch (e) { status('account-status', 'order: ' + e.message, true); }
  });

  // ---- sim clock through the admin API -------------------------------------------------------
  function showClock(c) {
    setNow(BigInt(c.now_ns));
    status('clock-status', (c.paused ? 'paused' : 'running') + ' · speed ' + c.speed);
    var sel = $('speed');
    if (!Array.prototype.some.call(sel.options, function (o) { return o.value === String(c.speed); })) sel.appendChild(el('option', String(c.speed)));
    sel.value = String(c.speed);
    $('clock-status').setAttribute('data-paused', String(c.paused));
  }
  async function clock(path, body) {
    if (!S.admin) return;
    try { showClock(await api(body === undefined && path === '/admin/clock' ? 'GET' : 'POST', path, body, S.admin)); }
    catch (e) { status('clock-status', 'clock: ' + e.message, true); }
  }
  $('admin-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    S.admin = $('admin-token').value.trim() || null;
    ['pause', 'resume', 'step', 'speed'].forEach(function (id) { $(id).disabled = !S.admin; });
    clock('/admin/clock');
  });
  $('pause').addEventListener('click', function () { clock('/admin/clock/pause', {}); });
  $('resume').addEventListener('click', function () { clock('/admin/clock/resume', {}); });
  $('step').addEventListener('click', function () { clock('/admin/clock/advance', { seconds: Number($('step-seconds').value) || 1 }); });
  $('speed').addEventListener('change', function () { var v = $('speed').value; clock('/admin/clock/speed', { speed: v === 'max' ? 'max' : Number(v) }); });

  setInterval(function () { loadCandles(); refreshPositions(); if (S.admin) clock('/admin/clock'); }, 2000);
})();
