// workbook serve: the lesson charts, and the chart of a scenario case. Each figure.chart holds, in a
// script element of type application/json, the data a verified lesson program printed (see
// internal/web/charts.go) or a scenario run measured (internal/report/scenario_html.go); this file
// only lays those numbers out with Chart.js (chart.umd.min.js, vendored): it computes nothing the
// program did not print. Colours come from the page's CSS variables, so the charts follow the
// light and the dark theme. A page's charts are drawn at 'workbook:page'; the figures a page adds
// later (a check's result, a student's details in report.html) at 'workbook:charts', whose detail
// is the element that holds them, or by window.workbookCharts.draw(element).
(function () {
  'use strict';

  var charts = []; // {figure, build} of every chart on the page, to rebuild on a theme change

  function css(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  function theme() {
    return {
      fg: css('--fg'), muted: css('--muted'), faint: css('--faint'), line: css('--line'),
      accent: css('--accent'), link: css('--link'), bad: css('--bad'), warn: css('--warn'),
      ok: css('--ok'), panel: css('--panel')
    };
  }

  function dataOf(figure) {
    return JSON.parse(figure.querySelector('script.chart-data').textContent);
  }

  function choice(figure, name) {
    var on = figure.querySelector('fieldset[data-name="' + name + '"] input:checked');
    return on ? Number(on.value) : 0;
  }

  // seconds formats milliseconds as seconds with one decimal in the page's language.
  function seconds(ms) {
    var s = (ms / 1000).toFixed(1);
    return document.documentElement.lang === 'en' ? s : s.replace('.', ',');
  }

  function base(t, figure) {
    Chart.defaults.color = t.muted;
    Chart.defaults.borderColor = t.line;
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    return {
      locale: document.documentElement.lang || 'en',
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { labels: { color: t.fg, boxWidth: 14 } } },
      scales: {}
    };
  }

  function axisTitle(text, t) {
    return { display: true, text: text, color: t.fg };
  }

  // ---- the storm: knocks per tick against what the server can answer ----

  function storm(figure, t) {
    var d = dataOf(figure);
    var canvas = figure.querySelector('canvas');
    var labels = [];
    for (var i = 0; i < d.ticks; i++) labels.push(seconds(i * d.tick_ms));
    var rules = [], costs = [];
    d.runs.forEach(function (r) {
      if (rules.indexOf(r.rule) < 0) rules.push(r.rule);
      if (costs.indexOf(r.cost) < 0) costs.push(r.cost);
    });
    function run() {
      var rule = rules[choice(figure, 'rule')], cost = costs[choice(figure, 'cost')];
      return d.runs.filter(function (r) { return r.rule === rule && r.cost === cost; })[0];
    }
    // A zero is not drawn on the logarithmic scale: it is a gap (the table shows it).
    function series(a) {
      var out = [];
      for (var i = 0; i < d.ticks; i++) {
        var v = i < a.length ? a[i] : 0;
        out.push(v > 0 ? v : null);
      }
      return out;
    }
    var capacity = [];
    for (var k = 0; k < d.ticks; k++) capacity.push(k >= d.down ? d.rate : null);
    function datasets(r) {
      var load = series(r.load);
      return [
        {
          type: 'bar', label: figure.dataset.loadLabel, data: load, order: 3,
          backgroundColor: load.map(function (v, i) { return i < d.down ? t.faint : (v > d.rate ? t.bad : t.accent); }),
          barPercentage: 1, categoryPercentage: 1
        },
        {
          type: 'line', label: figure.dataset.answeredLabel, data: series(r.answered), order: 1,
          borderColor: t.link, backgroundColor: t.link, borderWidth: 1.5, pointRadius: 0, spanGaps: false, stepped: true
        },
        {
          type: 'line', label: figure.dataset.capacityLabel, data: capacity, order: 2,
          borderColor: t.fg, backgroundColor: t.fg, borderWidth: 1.5, borderDash: [6, 4], pointRadius: 0
        }
      ];
    }
    var o = base(t, figure);
    o.scales.x = {
      title: axisTitle(figure.dataset.xLabel, t), grid: { display: false },
      ticks: {
        autoSkip: false, maxRotation: 0,
        callback: function (v, i) { return (i * d.tick_ms) % 5000 === 0 ? labels[i] : null; }
      }
    };
    var top = 1;
    d.runs.forEach(function (r) { r.load.forEach(function (v) { top = Math.max(top, v); }); });
    o.scales.y = { type: 'logarithmic', min: 1, max: top, title: axisTitle(figure.dataset.yLabel, t) };
    o.plugins.tooltip = { mode: 'index', intersect: false };
    // The bars are drawn in three colours (before the server is up, over what it can answer, within
    // it): the legend names each colour, not only the first.
    o.plugins.legend.labels.generateLabels = function (chart) {
      var items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
      var out = [];
      items.forEach(function (it) {
        if (it.datasetIndex !== 0) { out.push(it); return; }
        [[figure.dataset.loadWithinLabel, t.accent], [figure.dataset.loadOverLabel, t.bad], [figure.dataset.loadDownLabel, t.faint]].forEach(function (p) {
          out.push(Object.assign({}, it, { text: p[0], fillStyle: p[1], strokeStyle: p[1] }));
        });
      });
      return out;
    };
    var chart = new Chart(canvas, {
      data: { labels: labels, datasets: datasets(run()) }, options: o,
      plugins: [shade(0, d.down - 1, figure.dataset.downLabel, t)]
    });
    figure.querySelectorAll('input[type=radio]').forEach(function (inp) {
      inp.onchange = function () {
        chart.data.datasets = datasets(run());
        chart.update('none');
        figure.dataset.shown = run().rule + '/' + run().cost;
      };
    });
    figure.dataset.shown = run().rule + '/' + run().cost;
    return [chart];
  }

  // ---- a hundred clients: the pause each chose after each failure ----

  function dots(figure, t) {
    var d = dataOf(figure);
    var canvases = figure.querySelectorAll('canvas');
    var right = 0;
    d.rules.forEach(function (r) { r.pauses.forEach(function (row) { row.forEach(function (v) { right = Math.max(right, v); }); }); });
    right = Math.ceil(right * d.tick_ms / 1000);
    return d.rules.map(function (r, ri) {
      var points = [];
      r.pauses.forEach(function (row, k) {
        row.forEach(function (v, c) {
          // Each client its own lane inside the row of failure k+1: layout, not a model.
          points.push({ x: v * d.tick_ms / 1000, y: k + 1 - 0.4 + 0.8 * (c + 0.5) / row.length, pause: v });
        });
      });
      var o = base(t, figure);
      o.plugins.legend.labels.usePointStyle = true; // what a dot is (the rule is the chart's title)
      o.plugins.tooltip = {
        callbacks: {
          label: function (ctx) {
            return figure.dataset.yLabel + ' ' + Math.round(ctx.raw.y) + ': ' + seconds(ctx.raw.pause * d.tick_ms);
          }
        }
      };
      o.scales.x = { type: 'linear', min: 0, max: right, title: axisTitle(figure.dataset.xLabel, t) };
      var rows = r.pauses.length;
      o.scales.y = {
        type: 'linear', reverse: true, min: 0.5, max: rows + 0.5,
        title: axisTitle(figure.dataset.yLabel, t),
        afterBuildTicks: function (axis) {
          axis.ticks = [];
          for (var k = 1; k <= rows; k++) axis.ticks.push({ value: k });
        }
      };
      var color = ri % 2 ? t.link : t.accent;
      return new Chart(canvases[ri], {
        type: 'scatter',
        data: { datasets: [{ label: figure.dataset.dotLabel, data: points, pointRadius: 2, pointHoverRadius: 4, backgroundColor: color, borderWidth: 0 }] },
        options: o
      });
    });
  }


  // ---- the circuit breaker, tick by tick: a step-through of the lesson program's 12 ticks ----

  function breaker(figure, t) {
    var d = dataOf(figure), n = d.steps.length;
    var canvas = figure.querySelector('canvas');
    var strip = figure.querySelector('.breaker-strip');
    var now = figure.querySelector('.chart-now');
    var at = figure.querySelector('.step-at');
    var play = figure.querySelector('.step-play');
    var shown = figure.dataset.shown ? Number(figure.dataset.shown) : n; // ticks shown; kept across a rebuild
    var timer = null;
    // The fate of a call, from what the program printed: answered, failed, or refused at once.
    function fate(s) { return !s.called ? t.faint : (s.up ? t.ok : t.bad); }
    strip.textContent = '';
    strip.style.gridTemplateColumns = 'repeat(' + n + ', minmax(0, 1fr))';
    var cells = d.steps.map(function (s) {
      var c = document.createElement('span');
      c.className = 'breaker-cell';
      c.style.borderColor = fate(s);
      c.title = s.line;
      var tick = document.createElement('b');
      tick.textContent = s.tick;
      var up = document.createElement('span');
      up.textContent = s.up ? '✓' : '✗';
      up.title = s.up ? figure.dataset.up : figure.dataset.down;
      up.style.color = s.up ? t.ok : t.bad;
      c.appendChild(tick);
      c.appendChild(up);
      strip.appendChild(c);
      return c;
    });
    var states = d.states.slice().reverse(); // the open state on top
    function upto(f) {
      return d.steps.map(function (s, i) { return i < shown ? f(s) : null; });
    }
    var o = base(t, figure);
    o.plugins.legend.labels.usePointStyle = true;
    // The state line's key in its own colour, not its first dot's; after it, one key for each fate
    // a dot (and a cell of the strip above) is drawn in.
    o.plugins.legend.labels.generateLabels = function (chart) {
      var items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
      var out = [];
      items.forEach(function (it) {
        if (it.datasetIndex !== 0) { out.push(it); return; }
        out.push(Object.assign({}, it, { fillStyle: t.fg, strokeStyle: t.fg, pointStyle: 'line', lineWidth: 2 }));
        [[figure.dataset.fateOkLabel, t.ok], [figure.dataset.fateErrorLabel, t.bad], [figure.dataset.fateRefusedLabel, t.faint]].forEach(function (p) {
          out.push(Object.assign({}, it, { text: p[0], fillStyle: p[1], strokeStyle: p[1], pointStyle: 'circle', lineWidth: 0, datasetIndex: undefined }));
        });
      });
      return out;
    };
    // A key of a fate hides nothing when clicked: only the keys of the data sets do.
    o.plugins.legend.onClick = function (e, item, legend) {
      if (item.datasetIndex === undefined) return;
      Chart.defaults.plugins.legend.onClick.call(this, e, item, legend);
    };
    o.scales.x = { title: axisTitle(figure.dataset.xLabel, t), grid: { display: false } };
    o.scales.y = { type: 'category', labels: states, offset: true, title: axisTitle(figure.dataset.yLabel, t) };
    o.scales.calls = {
      type: 'linear', position: 'right', min: 0, max: n, grid: { display: false },
      ticks: { stepSize: 2 }, title: axisTitle(figure.dataset.callsLabel, t)
    };
    var chart = new Chart(canvas, {
      data: {
        labels: d.steps.map(function (s) { return s.tick; }),
        datasets: [
          {
            type: 'line', label: figure.dataset.afterLabel, yAxisID: 'y', order: 1, data: upto(function (s) { return s.state; }),
            stepped: 'middle', borderColor: t.fg, borderWidth: 2, pointRadius: 6, pointHoverRadius: 8,
            pointBackgroundColor: d.steps.map(fate), pointBorderColor: t.panel
          },
          {
            type: 'line', label: figure.dataset.probe, yAxisID: 'y', order: 0, showLine: false,
            data: upto(function (s) { return s.during === d.states[1] ? s.during : null; }),
            pointStyle: 'triangle', pointRadius: 8, backgroundColor: t.warn, borderColor: t.warn
          },
          {
            type: 'bar', label: figure.dataset.callsLabel, yAxisID: 'calls', order: 2, data: upto(function (s) { return s.calls; }),
            backgroundColor: alpha(t.link, 0.35), barPercentage: 0.5, pointStyle: 'rect' // not the grey of a refusal; a bar's key
          }
        ]
      },
      options: o
    });
    function render() {
      chart.data.datasets[0].data = upto(function (s) { return s.state; });
      chart.data.datasets[1].data = upto(function (s) { return s.during === d.states[1] ? s.during : null; });
      chart.data.datasets[2].data = upto(function (s) { return s.calls; });
      chart.update('none');
      cells.forEach(function (c, i) {
        c.classList.toggle('future', i >= shown);
        c.classList.toggle('current', i === shown - 1);
      });
      var s = d.steps[shown - 1];
      now.textContent = !s ? '' : (shown === n ? s.line + '\n' + d.summary : s.line);
      at.textContent = figure.dataset.at.replace('{N}', s ? s.tick : '—').replace('{Total}', n);
      figure.dataset.shown = String(shown);
    }
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      play.textContent = figure.dataset.play;
    }
    function go(k) {
      shown = Math.max(0, Math.min(n, k));
      render();
    }
    figure.querySelector('.step-first').onclick = function () { stop(); go(0); };
    figure.querySelector('.step-back').onclick = function () { stop(); go(shown - 1); };
    figure.querySelector('.step-next').onclick = function () { stop(); go(shown + 1); };
    play.onclick = function () {
      if (timer) { stop(); return; }
      if (shown >= n) go(0);
      play.textContent = figure.dataset.pause;
      timer = setInterval(function () {
        go(shown + 1);
        if (shown >= n) stop();
      }, Number(figure.dataset.stepMs || 700));
      go(shown + 1);
    };
    render();
    return [{ destroy: function () { stop(); chart.destroy(); } }];
  }

  // alpha returns a CSS colour (#rgb or #rrggbb) with opacity a.
  function alpha(color, a) {
    var m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
    if (!m) return color;
    var h = m[1].length === 3 ? m[1].replace(/./g, '$&$&') : m[1];
    return 'rgba(' + parseInt(h.slice(0, 2), 16) + ',' + parseInt(h.slice(2, 4), 16) + ',' + parseInt(h.slice(4, 6), 16) + ',' + a + ')';
  }

  // shade is a Chart.js plugin that shades the categories from..to (indexes, inclusive) of the x
  // axis and writes label over them: the time a server or a database is gone, as the program says.
  function shade(from, to, label, t) {
    return {
      id: 'shade',
      beforeDatasetsDraw: function (chart) {
        var x = chart.scales.x, a = chart.chartArea, ctx = chart.ctx;
        var half = (x.getPixelForValue(1) - x.getPixelForValue(0)) / 2;
        var left = x.getPixelForValue(from) - half, right = x.getPixelForValue(to) + half;
        ctx.save();
        ctx.fillStyle = alpha(t.bad, 0.12);
        ctx.fillRect(left, a.top, right - left, a.bottom - a.top);
        ctx.fillStyle = t.bad;
        ctx.font = '12px ' + Chart.defaults.font.family;
        ctx.textAlign = 'center';
        ctx.fillText(label || '', (left + right) / 2, a.top + 14);
        ctx.restore();
      }
    };
  }

  function palette(t) {
    return [t.bad, t.accent, t.warn, t.link, t.fg];
  }

  // ---- retry amplification: calls per layer of a chain, for a few numbers of tries ----

  function depth(figure, t) {
    var d = dataOf(figure);
    var colors = palette(t).slice(1);
    var o = base(t, figure);
    o.plugins.legend.labels.usePointStyle = true;
    o.plugins.tooltip = { mode: 'index', intersect: false };
    o.scales.x = { title: axisTitle(figure.dataset.xLabel, t), grid: { display: false } };
    o.scales.y = { type: 'logarithmic', min: 1, title: axisTitle(figure.dataset.yLabel, t) };
    return [new Chart(figure.querySelector('canvas'), {
      type: 'line',
      data: {
        labels: d.series[0].layers,
        datasets: d.series.map(function (s, i) {
          var c = colors[i % colors.length];
          return {
            label: figure.dataset['series-' + i] || figure.getAttribute('data-series-' + i), data: s.calls,
            borderColor: c, backgroundColor: c, borderWidth: 2.5, pointRadius: 4
          };
        })
      },
      options: o
    })];
  }

  // ---- the failover, second by second, with each protection ----

  function failover(figure, t) {
    var d = dataOf(figure);
    var colors = palette(t);
    var labels = [];
    for (var i = 0; i < d.seconds; i++) labels.push(i);
    var metrics = ['load', 'useful', 'queue', 'lost'];
    var outage = shade(d.down_from, d.down_to - 1, figure.dataset.outageLabel, t);
    function metric() { return metrics[choice(figure, 'metric')]; }
    function logScale(m) { return m !== 'useful'; }
    function datasets(m) {
      var log = logScale(m);
      var sets = d.runs.map(function (r, i) {
        var c = colors[i % colors.length];
        return {
          label: r.name, data: r[m].map(function (v) { return log && v <= 0 ? null : v; }),
          borderColor: c, backgroundColor: c, borderWidth: 2.5, pointRadius: 2, spanGaps: false
        };
      });
      if (m === 'load') {
        sets.push({
          label: figure.dataset.capacityLabel, data: labels.map(function () { return d.capacity; }),
          borderColor: t.fg, backgroundColor: t.fg, borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0
        });
      }
      return sets;
    }
    function scales(m) {
      var y = logScale(m) ? { type: 'logarithmic', min: 1 } : { type: 'linear', min: 0 };
      y.title = axisTitle(figure.dataset['metric-' + m] || figure.getAttribute('data-metric-' + m), t);
      return {
        x: { title: axisTitle(figure.dataset.xLabel, t), grid: { display: false }, ticks: { autoSkip: false, maxRotation: 0, callback: function (v, i) { return i % 5 === 0 ? labels[i] : null; } } },
        y: y
      };
    }
    var o = base(t, figure);
    o.plugins.tooltip = { mode: 'index', intersect: false };
    o.scales = scales(metric());
    var chart = new Chart(figure.querySelector('canvas'), {
      type: 'line', data: { labels: labels, datasets: datasets(metric()) }, options: o, plugins: [outage]
    });
    figure.querySelectorAll('input[type=radio]').forEach(function (inp) {
      inp.onchange = function () {
        chart.data.datasets = datasets(metric());
        chart.options.scales = scales(metric());
        chart.update('none');
        figure.dataset.shown = metric();
      };
    });
    figure.dataset.shown = metric();
    return [chart];
  }

  // ---- the overload lesson: useful and wasted answers per window, one rule of the queue at a time ----

  function queue(figure, t) {
    var d = dataOf(figure);
    var labels = [];
    var span = d.window * d.tick_ms;
    for (var i = 0; i < d.runs[0].useful.length; i++) labels.push(seconds(i * span) + '–' + seconds((i + 1) * span));
    function run() { return d.runs[choice(figure, 'policy')]; }
    function datasets(r) {
      return [
        { type: 'bar', label: figure.dataset.usefulLabel, data: r.useful, backgroundColor: t.accent, stack: 'answers' },
        { type: 'bar', label: figure.dataset.wastedLabel, data: r.wasted, backgroundColor: t.bad, stack: 'answers' },
        {
          type: 'line', label: figure.dataset.demandLabel, data: labels.map(function () { return d.demand; }),
          borderColor: t.fg, backgroundColor: t.fg, borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0
        }
      ];
    }
    var o = base(t, figure);
    o.plugins.tooltip = { mode: 'index', intersect: false };
    o.scales.x = { stacked: true, title: axisTitle(figure.dataset.xLabel, t), grid: { display: false } };
    o.scales.y = { stacked: true, min: 0, max: d.capacity, title: axisTitle(figure.dataset.yLabel, t) };
    var chart = new Chart(figure.querySelector('canvas'), { data: { labels: labels, datasets: datasets(run()) }, options: o });
    figure.querySelectorAll('input[type=radio]').forEach(function (inp) {
      inp.onchange = function () {
        chart.data.datasets = datasets(run());
        chart.update('none');
        figure.dataset.shown = run().policy;
      };
    });
    figure.dataset.shown = run().policy;
    return [chart];
  }

  // ---- a scenario case: the requests a tick the learner's clients sent, beside the course's
  // policy's, with what the service answered, what it can answer and the exercise's limits ----

  function scenario(figure, t) {
    var d = dataOf(figure);
    var s = d.tick_ms / 1000; // seconds a tick
    var ref = d.reference || [];
    var n = Math.max(d.load.length, d.served.length, ref.length);
    var end = Math.max(n, d.down + 1) * s;
    d.lines.forEach(function (l) { if (l.axis === 'x') end = Math.max(end, l.at + 1); });
    if (d.first_over >= 0) end = Math.max(end, (d.first_over + 1) * s);
    var top = Math.max(1, d.rate);
    [d.load, d.served, ref].forEach(function (a) { a.forEach(function (v) { top = Math.max(top, v); }); });
    d.lines.forEach(function (l) { if (l.axis === 'y') top = Math.max(top, l.at); });
    // A zero is not drawn on the logarithmic scale: it is a gap (the table shows it).
    function points(a) {
      var out = [];
      for (var i = 0; i < n; i++) {
        var v = i < a.length ? a[i] : 0;
        out.push({ x: i * s, y: v > 0 ? v : null });
      }
      return out;
    }
    function line(label, color, data, more) {
      return Object.assign({ label: label, data: data, borderColor: color, backgroundColor: color, pointRadius: 0, borderWidth: 1.5 }, more);
    }
    var sets = [line(figure.dataset.yoursLabel, t.accent, points(d.load), { kind: 'load', borderWidth: 2.5, stepped: true, spanGaps: false })];
    if (ref.length) sets.push(line(figure.dataset.referenceLabel, t.link, points(ref), { kind: 'reference', stepped: true, spanGaps: false }));
    if (d.served.length) sets.push(line(figure.dataset.servedLabel, t.ok, points(d.served), { kind: 'served', borderWidth: 1, stepped: true, spanGaps: false }));
    sets.push(line(figure.dataset.capacityLabel, t.fg, [{ x: d.down * s, y: Math.max(1, d.rate) }, { x: end, y: Math.max(1, d.rate) }],
      { kind: 'capacity', borderDash: [6, 4] }));
    var dashes = [[2, 3], [10, 4], [8, 3, 2, 3]];
    d.lines.forEach(function (l, i) {
      // A limit of requests a tick is a horizontal line from where it holds; a limit of time, a
      // vertical line at its instant.
      var data = l.axis === 'y' ? [{ x: l.from, y: l.at }, { x: end, y: l.at }] : [{ x: l.at, y: 1 }, { x: l.at, y: top }];
      sets.push(line(l.label, t.bad, data, { kind: 'limit', metric: l.metric, axis: l.axis, at: l.at, borderWidth: 2, borderDash: dashes[i % dashes.length] }));
    });
    if (d.first_over >= 0) {
      var x = d.first_over * s;
      // The first moment past a limit: a dotted line at that instant, with a mark on top.
      sets.push(line(figure.dataset.firstOverLabel, t.warn, [{ x: x, y: 1 }, { x: x, y: top }],
        { kind: 'first_over', at: x, borderDash: [1, 3], borderWidth: 2, pointStyle: 'triangle', pointRadius: [0, 8], pointHoverRadius: [0, 9] }));
    }
    var o = base(t, figure);
    var en = document.documentElement.lang === 'en';
    o.plugins.tooltip = { mode: 'nearest', axis: 'x', intersect: false };
    o.scales.x = {
      type: 'linear', min: 0, max: end, title: axisTitle(figure.dataset.xLabel, t), grid: { display: false },
      ticks: { callback: function (v) { return en ? String(v) : String(v).replace('.', ','); } }
    };
    o.scales.y = { type: 'logarithmic', min: 1, max: top, title: axisTitle(figure.dataset.yLabel, t) };
    var chart = new Chart(figure.querySelector('canvas'), {
      type: 'line', data: { datasets: sets }, options: o,
      plugins: [band(0, d.down * s, figure.dataset.downLabel, t)]
    });
    fillRows(figure, d, n);
    figure.dataset.shown = 'scenario';
    return [chart];
  }

  // fillRows writes the rows of a scenario figure's series table that came with its head only
  // (data-rows), when it is first opened: tick, instant, the load, the course's policy's, the answers.
  function fillRows(figure, d, n) {
    var det = figure.querySelector('details.chart-table[data-rows]');
    if (!det) return;
    var en = document.documentElement.lang === 'en';
    function fill() {
      var body = det.querySelector('tbody');
      if (!det.open || body.rows.length) return;
      var cols = [d.load].concat(d.reference && d.reference.length ? [d.reference] : [], [d.served]);
      for (var i = 0; i < n; i++) {
        var tr = document.createElement('tr'), th = document.createElement('th');
        th.textContent = i;
        tr.appendChild(th);
        var s = String(Math.round(i * d.tick_ms) / 1000);
        var cells = [det.dataset.seconds.replace('{S}', en ? s : s.replace('.', ','))];
        cols.forEach(function (a) { cells.push(i < a.length ? a[i] : 0); });
        cells.forEach(function (v) {
          var td = document.createElement('td');
          td.textContent = v;
          tr.appendChild(td);
        });
        body.appendChild(tr);
      }
    }
    det.addEventListener('toggle', fill);
    fill();
  }

  // band is a Chart.js plugin that shades the span from..to of a linear x axis and writes label over
  // it: the scenario's trigger, as the run reports it.
  function band(from, to, label, t) {
    return {
      id: 'band',
      beforeDatasetsDraw: function (chart) {
        if (to <= from) return;
        var x = chart.scales.x, a = chart.chartArea, ctx = chart.ctx;
        var left = x.getPixelForValue(from), right = x.getPixelForValue(to);
        ctx.save();
        ctx.fillStyle = alpha(t.bad, 0.12);
        ctx.fillRect(left, a.top, right - left, a.bottom - a.top);
        ctx.fillStyle = t.bad;
        ctx.font = '12px ' + Chart.defaults.font.family;
        ctx.textAlign = 'center';
        ctx.fillText(label || '', (left + right) / 2, a.top + 14);
        ctx.restore();
      }
    };
  }

  var kinds = { storm: storm, dots: dots, breaker: breaker, depth: depth, failover: failover, queue: queue, scenario: scenario };

  function draw(figure) {
    var make = kinds[figure.dataset.chart];
    if (!make) return;
    figure.querySelectorAll('fieldset.chart-choice').forEach(function (f) {
      if (!f.querySelector('input:checked')) f.querySelector('input').checked = true;
    });
    var entry = { figure: figure, made: [] };
    entry.build = function () {
      entry.made.forEach(function (c) { c.destroy(); });
      entry.made = make(figure, theme()) || [];
      figure.dataset.rendered = String(Number(figure.dataset.rendered || 0) + 1);
    };
    charts.push(entry);
    try {
      entry.build();
    } catch (e) {
      figure.dataset.error = String(e);
      throw e;
    }
  }

  var watching = false;

  // drawIn draws every chart under root not drawn yet, and forgets the charts whose figures have
  // left the page (the result of an earlier check).
  function drawIn(root) {
    if (typeof Chart === 'undefined') return;
    charts = charts.filter(function (c) {
      if (document.contains(c.figure)) return true;
      c.made.forEach(function (m) { m.destroy(); });
      return false;
    });
    root.querySelectorAll('figure.chart').forEach(function (f) {
      if (!charts.some(function (c) { return c.figure === f; })) draw(f);
    });
    if (!watching && window.matchMedia) {
      watching = true;
      var mq = window.matchMedia('(prefers-color-scheme: dark)');
      var rebuild = function () { charts.forEach(function (c) { c.build(); }); };
      if (mq.addEventListener) mq.addEventListener('change', rebuild); else mq.addListener(rebuild);
    }
  }

  window.workbookCharts = { draw: drawIn };
  // The lesson's content, charts and all, comes after the page's shell (app.js says when); a
  // check's result comes later still.
  document.addEventListener('workbook:page', function () { drawIn(document); });
  document.addEventListener('workbook:charts', function (e) { drawIn(e.detail || document); });
})();
