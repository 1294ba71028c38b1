// report.html's charts: one lightweight-charts chart whose panes share one time axis, so price,
// position, equity, drawdown and fees / funding zoom and scroll together. Reads the JSON in
// #report-data (written by chart-data.ts); draws nothing else and loads nothing.
(function () {
  'use strict';
  var LC = window.LightweightCharts;
  var root = document.getElementById('charts');
  var source = document.getElementById('report-data');
  if (!LC || !root || !source) return;
  var data = JSON.parse(source.textContent);
  var COLORS = { bid: '#059669', ask: '#dc2626', price: '#475569', buy: '#059669', sell: '#dc2626', buyTaker: '#065f46', sellTaker: '#991b1b', equity: '#2563eb', drawdown: '#dc2626', fees: '#d97706', funding: '#7c3aed' };
  var POSITION_COLORS = ['#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c'];

  function pad(n, w) { return String(n).padStart(w, '0'); }
  /** "2025-09-24 05:20:25.123" (UTC; the fraction only when there is one). */
  function utc(t, withDate) {
    var ms = Math.round(t * 1000);
    var d = new Date(ms);
    var text = d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2) + ' ' +
      pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) + (ms % 1000 === 0 ? '' : '.' + pad(ms % 1000, 3));
    return withDate ? text : text.slice(11);
  }
  function points(list) { return list.map(function (p) { return { time: p[0], value: p[1] }; }); }

  var panes = [];
  var chart = LC.createChart(root, {
    autoSize: true,
    layout: { background: { color: '#ffffff' }, textColor: '#374151', fontSize: 11, attributionLogo: false, panes: { separatorColor: '#e5e7eb' } },
    grid: { vertLines: { color: '#f1f3f5' }, horzLines: { color: '#f1f3f5' } },
    rightPriceScale: { borderColor: '#e5e7eb' },
    timeScale: {
      borderColor: '#e5e7eb', timeVisible: true, secondsVisible: true, rightOffset: 2, minBarSpacing: 0.001,
      tickMarkFormatter: function (time, type) { return type < 3 ? utc(time, true).slice(0, 10) : utc(time, false); },
    },
    localization: { timeFormatter: function (time) { return utc(time, true) + ' UTC'; } },
    crosshair: { mode: LC.CrosshairMode.Normal },
  });

  /** A new pane (or the first) with a title; returns its index. */
  function pane(title, height) {
    panes.push({ title: title, height: height });
    return panes.length - 1;
  }
  function line(index, list, options) {
    var s = chart.addSeries(LC.LineSeries, Object.assign({ lineWidth: 1, priceLineVisible: false, lastValueVisible: true }, options), index);
    s.setData(points(list));
    return s;
  }

  var markersBySymbol = {};
  var fillsAt = new Map();
  var seriesFor = [];
  data.symbols.forEach(function (sym) {
    var i = pane(sym.symbol + ' ' + (sym.bid.length > 0 ? 'touch (bid / ask)' : sym.label) + ' with fills', 300);
    if (sym.bid.length > 0) line(i, sym.bid, { color: COLORS.bid, title: 'bid', lineType: LC.LineType.WithSteps });
    if (sym.ask.length > 0) line(i, sym.ask, { color: COLORS.ask, title: 'ask', lineType: LC.LineType.WithSteps });
    if (sym.price.length > 0) line(i, sym.price, { color: COLORS.price, title: sym.label });
    // The markers ride on a series of the fill prices (line hidden), so every marker has its time on it.
    var last = new Map();
    sym.fills.forEach(function (f) { last.set(f[0], f[2]); });
    var carrier = chart.addSeries(LC.LineSeries, { lineVisible: false, pointMarkersVisible: false, lastValueVisible: false, priceLineVisible: false, crosshairMarkerVisible: false, color: COLORS.price }, i);
    carrier.setData(Array.from(last, function (e) { return { time: e[0], value: e[1] }; }));
    var markers = sym.fills.map(function (f) {
      var buy = f[1] > 0;
      var maker = f[4] === 1;
      var list = fillsAt.get(f[0]) || [];
      list.push({ symbol: sym.symbol, fill: f });
      fillsAt.set(f[0], list);
      return { time: f[0], position: 'atPriceMiddle', price: f[2], shape: buy ? 'arrowUp' : 'arrowDown', color: buy ? (maker ? COLORS.buy : COLORS.buyTaker) : (maker ? COLORS.sell : COLORS.sellTaker), size: maker ? 0.6 : 1 };
    });
    markersBySymbol[sym.symbol] = LC.createSeriesMarkers(carrier, markers);
  });
  if (data.positions.length > 0) {
    var pi = pane('position (contracts)', 140);
    data.positions.forEach(function (p, k) {
      seriesFor.push({ label: p.symbol + ' position', series: line(pi, p.points, { color: POSITION_COLORS[k % POSITION_COLORS.length], title: p.symbol, lineType: LC.LineType.WithSteps }) });
    });
  }
  var ccy = data.currency ? ' (' + data.currency + ')' : '';
  if (data.equity.length > 0) {
    var ei = pane('equity' + ccy, 200);
    var eq = chart.addSeries(LC.AreaSeries, { lineColor: COLORS.equity, topColor: 'rgba(37,99,235,0.18)', bottomColor: 'rgba(37,99,235,0.02)', lineWidth: 2, priceLineVisible: false, title: 'equity' }, ei);
    eq.setData(points(data.equity));
    seriesFor.push({ label: 'equity', series: eq });
    var di = pane('drawdown from the running peak' + ccy, 120);
    var dd = chart.addSeries(LC.AreaSeries, { lineColor: COLORS.drawdown, topColor: 'rgba(220,38,38,0.05)', bottomColor: 'rgba(220,38,38,0.25)', lineWidth: 1, priceLineVisible: false, invertFilledArea: true, title: 'drawdown' }, di);
    dd.setData(points(data.drawdown));
    seriesFor.push({ label: 'drawdown', series: dd });
  }
  if (data.fees.length > 0 || data.funding.length > 0) {
    var fi = pane('cumulative fees paid and funding received' + ccy, 120);
    if (data.fees.length > 0) seriesFor.push({ label: 'fees paid', series: line(fi, data.fees, { color: COLORS.fees, title: 'fees', lineType: LC.LineType.WithSteps }) });
    if (data.funding.length > 0) seriesFor.push({ label: 'funding', series: line(fi, data.funding, { color: COLORS.funding, title: 'funding', lineType: LC.LineType.WithSteps }) });
  }

  var total = 0;
  panes.forEach(function (p) { total += p.height; });
  root.style.height = total + 30 + 'px';
  chart.panes().forEach(function (p, k) { if (panes[k]) p.setStretchFactor(panes[k].height); });
  chart.timeScale().fitContent();

  // Pane titles at the top left of each pane (the library draws none), placed once laid out.
  function placeTitles() {
    var wrap = root.parentElement;
    wrap.querySelectorAll('.pane-title').forEach(function (e) { e.remove(); });
    var top = root.getBoundingClientRect().top;
    chart.panes().forEach(function (p, k) {
      var el = p.getHTMLElement();
      if (!el || !panes[k]) return;
      var label = document.createElement('div');
      label.className = 'pane-title';
      label.textContent = panes[k].title;
      label.style.top = (el.getBoundingClientRect().top - top + 2) + 'px';
      wrap.appendChild(label);
    });
  }
  requestAnimationFrame(function () { requestAnimationFrame(placeTitles); });
  window.addEventListener('resize', function () { requestAnimationFrame(placeTitles); });

  // Hover details: the time, the value of every series, and the fills at that instant.
  var tip = document.getElementById('chart-tip');
  chart.subscribeCrosshairMove(function (param) {
    if (!tip) return;
    if (param.time === undefined) { tip.hidden = true; return; }
    var lines = [utc(param.time, true) + ' UTC'];
    seriesFor.forEach(function (s) {
      var v = param.seriesData.get(s.series);
      if (v && v.value !== undefined) lines.push(s.label + ': ' + v.value);
    });
    (fillsAt.get(param.time) || []).forEach(function (e) {
      var f = e.fill;
      lines.push((f[1] > 0 ? 'BUY ' : 'SELL ') + f[3] + ' ' + e.symbol + ' @ ' + f[2] + (f[4] === 1 ? ' maker' : ' taker') + (f[5] ? ' · fee ' + f[5] : '') + (f[6] && f[6] !== '0' ? ' · realized ' + f[6] : ''));
    });
    tip.textContent = lines.join('\n');
    tip.hidden = false;
  });

  var count = 0;
  Object.keys(markersBySymbol).forEach(function (k) { count += markersBySymbol[k].markers().length; });
  root.setAttribute('data-markers', String(count));
  root.setAttribute('data-panes', String(chart.panes().length));
  window.perpsimReport = { chart: chart, markers: markersBySymbol };
  root.setAttribute('data-ready', '1');
})();
