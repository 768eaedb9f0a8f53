package web

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// chartLegend is what one canvas of a chart draws and what its legend says: the names and colours
// of the legend's keys, the labels of the data sets drawn and every colour they are drawn in.
type chartLegend struct {
	Names  []string // the legend's keys, as shown
	Keys   []string // the colours of the keys (fill and stroke)
	Labels []string // the labels of the data sets that draw something
	Drawn  []string // every colour a data set is drawn in: bars, lines, points
}

// legendJS reads a chartLegend for every canvas under the figure %q. A data set draws its bars in
// its background colours, its line in its border colour and its points in their own colours (or
// the background colour), each only where it has a value.
const legendJS = `(function (sel) {
	return Array.from(document.querySelectorAll(sel + ' canvas')).map(function (cv) {
		var c = Chart.getChart(cv), r = { Names: [], Keys: [], Labels: [], Drawn: [] };
		if (!c) return r;
		if (c.options.plugins.legend.display !== false) {
			c.legend.legendItems.forEach(function (i) { r.Names.push(i.text); r.Keys.push(i.fillStyle, i.strokeStyle); });
		}
		c.data.datasets.forEach(function (ds, di) {
			if (!c.isDatasetVisible(di)) return;
			var has = function (i) { return ds.data[i] !== null && ds.data[i] !== undefined; };
			if (!ds.data.some(function (v, i) { return has(i); })) return;
			r.Labels.push(ds.label || '');
			var each = function (col) {
				if (Array.isArray(col)) ds.data.forEach(function (v, i) { if (has(i)) r.Drawn.push(col[i]); });
				else if (col) r.Drawn.push(col);
			};
			var type = ds.type || c.config.type;
			if (type === 'bar') { each(ds.backgroundColor); return; }
			if (ds.showLine !== false && type !== 'scatter') each(ds.borderColor);
			if (ds.pointRadius !== 0) each(ds.pointBackgroundColor || ds.backgroundColor);
		});
		return r;
	});
})(%q)`

// checkLegend checks that the legend of the chart under fig, in a page already open, explains every
// colour drawn: each data set drawn has a key that names it (or, drawn in several colours, a key for
// each that begins with its name), each colour a bar, a line or a point is drawn in is the colour of
// a key, and no key is nameless. With English messages (messages "en"), the chart's own words
// (caption, axis and legend labels) are English; names the lesson program printed (a rule, a
// protection) stay in the content language.
func (b *browserEnv) checkLegend(fig, messages string) {
	b.t.Helper()
	var canvases []chartLegend
	b.chartEval(fmt.Sprintf(legendJS, fig), &canvases)
	if len(canvases) == 0 {
		b.t.Fatal("no canvas")
	}
	for ci, l := range canvases {
		if len(l.Labels) == 0 {
			b.t.Errorf("canvas %d draws nothing", ci)
		}
		for _, n := range l.Names {
			if strings.TrimSpace(n) == "" || strings.HasPrefix(n, "web_chart_") {
				b.t.Errorf("canvas %d: a key named %q among %q", ci, n, l.Names)
			}
		}
		for _, lb := range l.Labels {
			// A data set drawn in several colours has a key for each, each beginning with its label.
			named := slices.ContainsFunc(l.Names, func(n string) bool { return n == lb || strings.HasPrefix(n, lb+",") || strings.HasPrefix(n, lb+" ") })
			if lb == "" || !named {
				b.t.Errorf("canvas %d: the data set %q is drawn, but the legend %q does not name it", ci, lb, l.Names)
			}
		}
		for _, col := range l.Drawn {
			if !slices.Contains(l.Keys, col) {
				b.t.Errorf("canvas %d: the colour %s is drawn, but no key of the legend %q has it", ci, col, l.Names)
			}
		}
	}
	if messages == "en" {
		var words []string
		b.chartEval(fmt.Sprintf(`(function (f) { var w = [f.querySelector('figcaption').textContent];
			Object.keys(f.dataset).forEach(function (k) { if (/Label$|^(play|pause|at|probe|up|down)$/.test(k)) w.push(f.dataset[k]); });
			f.querySelectorAll('fieldset legend, .chart-table summary').forEach(function (e) { w.push(e.textContent); });
			return w; })(document.querySelector(%q))`, fig), &words)
		for _, w := range words {
			if strings.ContainsFunc(w, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) {
				b.t.Errorf("with English messages the chart says %q", w)
			}
		}
	}
}
