package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
)

// Charts. A lesson program may print the data of a chart as one line of JSON whose "chart" field
// names its kind; the lesson shows that output in a hidden output block (```output hidden), so
// `workbook verify` guarantees that every number in it is what the program printed. In the
// browser such a block becomes a figure: a canvas that static/charts.js draws with Chart.js from
// the very JSON the program printed (embedded in the page as data, never recomputed), the
// controls that choose what is drawn, a description, and the numbers as a table for those who do
// not see the canvas. Nothing in this file or in charts.js models the lesson: they only lay out
// what the program printed.

// chartKinds are the kinds of chart the lessons may print, each with its renderer.
var chartKinds = map[string]func(w io.Writer, c *chartCtx) error{
	"storm":    renderStorm,
	"dots":     renderDots,
	"breaker":  renderBreaker,
	"depth":    renderDepth,
	"failover": renderFailover,
	"queue":    renderQueue,
}

// chartCtx is one chart being rendered: its data as printed, its id on the page and the printer of
// the page's language.
type chartCtx struct {
	id   string
	kind string
	raw  []byte // the program's JSON, compacted
	p    *i18n.Printer
}

// chartKind returns the kind of chart an output block's text holds, or "" when it holds none.
func chartKind(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, `{"chart":`) || strings.Contains(t, "\n") {
		return ""
	}
	var head struct {
		Chart string `json:"chart"`
	}
	if json.Unmarshal([]byte(t), &head) != nil {
		return ""
	}
	if _, ok := chartKinds[head.Chart]; !ok {
		return ""
	}
	return head.Chart
}

// writeChart writes the figure of the chart in text (an output block's text, see chartKind) as
// block number block of the page.
func writeChart(w io.Writer, block int, text string, p *i18n.Printer) error {
	kind := chartKind(text)
	if kind == "" {
		return fmt.Errorf("block %d holds no chart", block)
	}
	var raw bytes.Buffer
	if err := json.Compact(&raw, []byte(strings.TrimSpace(text))); err != nil {
		return err
	}
	c := &chartCtx{id: fmt.Sprintf("chart-%d", block), kind: kind, raw: raw.Bytes(), p: p}
	var body bytes.Buffer
	if err := chartKinds[kind](&body, c); err != nil {
		return fmt.Errorf("chart %s: %w", kind, err)
	}
	_, err := w.Write(body.Bytes())
	return err
}

// open writes the start of the figure: its caption, description and the attributes charts.js
// reads (labels in the page's language).
func (c *chartCtx) open(w io.Writer, title, desc string, labels map[string]string) {
	fmt.Fprintf(w, `<figure class="chart chart-%s" id="%s" data-chart="%s"`, c.kind, c.id, c.kind)
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		fmt.Fprintf(w, ` data-%s="%s"`, k, html.EscapeString(labels[k]))
	}
	fmt.Fprintf(w, ">\n<figcaption>%s</figcaption>\n", html.EscapeString(title))
	fmt.Fprintf(w, `<p class="chart-desc" id="%s-desc">%s</p>`+"\n", c.id, html.EscapeString(desc))
}

// data writes the program's JSON for charts.js, escaped for a script element.
func (c *chartCtx) data(w io.Writer) {
	var b bytes.Buffer
	json.HTMLEscape(&b, c.raw)
	fmt.Fprintf(w, `<script type="application/json" class="chart-data">%s</script>`+"\n", b.String())
}

// canvas writes a canvas described by the figure's description.
func (c *chartCtx) canvas(w io.Writer, cls, label string) {
	fmt.Fprintf(w, `<div class="chart-box %s"><canvas role="img" aria-label="%s" aria-describedby="%s-desc"></canvas></div>`+"\n",
		cls, html.EscapeString(label), c.id)
}

// choices writes a group of radio buttons named name. None is checked in the HTML (a lesson page
// shows no checked box, so that no quiz answer can be read from it): charts.js checks the first.
func (c *chartCtx) choices(w io.Writer, name, legend string, labels []string) {
	fmt.Fprintf(w, `<fieldset class="chart-choice" data-name="%s"><legend>%s</legend>`, name, html.EscapeString(legend))
	for i, l := range labels {
		fmt.Fprintf(w, `<label><input type="radio" name="%s-%s" value="%d"> %s</label>`, c.id, name, i, html.EscapeString(l))
	}
	w.Write([]byte("</fieldset>\n"))
}

// table writes the numbers as a table inside a closed details element.
func (c *chartCtx) table(w io.Writer, caption string, head []string, rows [][]string) {
	fmt.Fprintf(w, `<details class="chart-table"><summary>%s</summary>`+"\n", html.EscapeString(c.p.T("web_chart_table")))
	c.tableOnly(w, caption, head, rows)
	w.Write([]byte("</details>\n"))
}

func (c *chartCtx) tableOnly(w io.Writer, caption string, head []string, rows [][]string) {
	fmt.Fprintf(w, "<div class=\"chart-table-scroll\"><table>\n<caption>%s</caption>\n<thead><tr>", html.EscapeString(caption))
	for _, h := range head {
		fmt.Fprintf(w, `<th scope="col">%s</th>`, html.EscapeString(h))
	}
	w.Write([]byte("</tr></thead>\n<tbody>\n"))
	for _, r := range rows {
		w.Write([]byte("<tr>"))
		for i, cell := range r {
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			fmt.Fprintf(w, "<%s>%s</%s>", tag, html.EscapeString(cell), tag)
		}
		w.Write([]byte("</tr>\n"))
	}
	w.Write([]byte("</tbody></table></div>\n"))
}

// seconds writes a time in milliseconds as seconds with one decimal, in the page's language:
// "10,0 с", "10.0 s".
func seconds(p *i18n.Printer, ms int) string {
	return p.T("web_chart_seconds", "S", p.Decimal(float64(ms)/1000, 1))
}

func at(a []int, i int) int {
	if i < len(a) {
		return a[i]
	}
	return 0
}

// stormData is what the storm lesson's stormchart program prints: for each retry rule and each cost
// of a refusal, how many clients knocked in each tick and how many the server answered (trailing
// zeros left out).
type stormData struct {
	Ticks  int `json:"ticks"`
	TickMS int `json:"tick_ms"`
	Down   int `json:"down"`
	Rate   int `json:"rate"`
	Runs   []struct {
		Rule     string `json:"rule"`
		Cost     int    `json:"cost"`
		Load     []int  `json:"load"`
		Answered []int  `json:"answered"`
	} `json:"runs"`
}

func renderStorm(w io.Writer, c *chartCtx) error {
	var d stormData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if d.Ticks <= 0 || d.TickMS <= 0 || len(d.Runs) == 0 {
		return fmt.Errorf("no runs")
	}
	var rules []string
	var costs []int
	for _, r := range d.Runs {
		if !slices.Contains(rules, r.Rule) {
			rules = append(rules, r.Rule)
		}
		if !slices.Contains(costs, r.Cost) {
			costs = append(costs, r.Cost)
		}
	}
	p := c.p
	c.open(w, p.T("web_chart_storm_title"), p.T("web_chart_storm_desc",
		"Tick", d.TickMS, "Down", seconds(p, d.Down*d.TickMS), "Rate", d.Rate, "Ticks", d.Ticks, "Span", seconds(p, d.Ticks*d.TickMS)),
		map[string]string{
			"x-label": p.T("web_chart_time_s"), "y-label": p.T("web_chart_per_tick"),
			"load-label": p.T("web_chart_knocks"), "answered-label": p.T("web_chart_answered"),
			"capacity-label": p.T("web_chart_capacity"), "down-label": p.T("web_chart_server_down"),
			// The bars have three colours; the legend names each.
			"load-over-label": p.T("web_chart_knocks_over"), "load-within-label": p.T("web_chart_knocks_within"),
			"load-down-label": p.T("web_chart_knocks_down"),
		})
	w.Write([]byte(`<div class="chart-controls">`))
	c.choices(w, "rule", p.T("web_chart_rule"), rules)
	var costLabels []string
	for _, k := range costs {
		if k == 0 {
			costLabels = append(costLabels, p.T("web_chart_cost_free", "Cost", k))
		} else {
			costLabels = append(costLabels, p.T("web_chart_cost_paid", "Cost", k))
		}
	}
	c.choices(w, "cost", p.T("web_chart_refusal"), costLabels)
	w.Write([]byte("</div>\n"))
	c.canvas(w, "wide", p.T("web_chart_storm_title"))
	c.data(w)
	fmt.Fprintf(w, `<details class="chart-table"><summary>%s</summary>`+"\n", html.EscapeString(p.T("web_chart_table")))
	for ci, k := range costs {
		head := []string{p.T("web_chart_tick"), p.T("web_chart_time"), p.T("web_chart_capacity")}
		var runs []int
		last := 0
		for i, r := range d.Runs {
			if r.Cost == k {
				runs = append(runs, i)
				head = append(head, r.Rule)
				last = max(last, len(r.Load), len(r.Answered))
			}
		}
		var rows [][]string
		for t := range min(last, d.Ticks) {
			capacity := "0"
			if t >= d.Down {
				capacity = strconv.Itoa(d.Rate)
			}
			row := []string{strconv.Itoa(t), seconds(p, t*d.TickMS), capacity}
			for _, i := range runs {
				row = append(row, fmt.Sprintf("%d / %d", at(d.Runs[i].Load, t), at(d.Runs[i].Answered, t)))
			}
			rows = append(rows, row)
		}
		c.tableOnly(w, costLabels[ci]+": "+p.T("web_chart_storm_cells"), head, rows)
	}
	w.Write([]byte("</details>\n</figure>\n"))
	return nil
}

// dotsData is what the storm lesson's dotschart program prints: for each rule, the pause every
// client chose after each failure.
type dotsData struct {
	TickMS  int `json:"tick_ms"`
	Clients int `json:"clients"`
	Rules   []struct {
		Rule   string  `json:"rule"`
		Pauses [][]int `json:"pauses"`
	} `json:"rules"`
}

func renderDots(w io.Writer, c *chartCtx) error {
	var d dotsData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if len(d.Rules) == 0 || d.TickMS <= 0 {
		return fmt.Errorf("no rules")
	}
	p := c.p
	failures := len(d.Rules[0].Pauses)
	c.open(w, p.N("web_chart_dots_title", d.Clients), p.T("web_chart_dots_desc", "Clients", d.Clients, "Failures", failures),
		map[string]string{"x-label": p.T("web_chart_pause_s"), "y-label": p.T("web_chart_failure"), "dot-label": p.T("web_chart_dot")})
	w.Write([]byte(`<div class="chart-grid">` + "\n"))
	for _, r := range d.Rules {
		fmt.Fprintf(w, `<div class="chart-cell"><div class="chart-cell-title">%s</div>`, html.EscapeString(r.Rule))
		c.canvas(w, "square", r.Rule)
		w.Write([]byte("</div>\n"))
	}
	w.Write([]byte("</div>\n"))
	c.data(w)
	fmt.Fprintf(w, `<details class="chart-table"><summary>%s</summary>`+"\n", html.EscapeString(p.T("web_chart_table")))
	for _, r := range d.Rules {
		var rows [][]string
		for k, ps := range r.Pauses {
			nums := make([]string, len(ps))
			for i, v := range ps {
				nums[i] = strconv.Itoa(v)
			}
			rows = append(rows, []string{strconv.Itoa(k + 1), strings.Join(nums, " ")})
		}
		c.tableOnly(w, r.Rule, []string{p.T("web_chart_failure"), p.T("web_chart_pauses_ticks", "Clients", d.Clients)}, rows)
	}
	w.Write([]byte("</details>\n</figure>\n"))
	return nil
}

// breakerData is what the slow-neighbour lesson's breakerchart program prints: the circuit
// breaker's 12 ticks, each with the state it decided in, whether the provider was called, the
// result, the state after, its failure count, the calls so far and the line the lesson prints.
type breakerData struct {
	Threshold int      `json:"threshold"`
	Cooldown  int      `json:"cooldown"`
	States    []string `json:"states"`
	Steps     []struct {
		Tick     int    `json:"tick"`
		Up       bool   `json:"up"`
		During   string `json:"during"`
		Called   bool   `json:"called"`
		Result   string `json:"result"`
		State    string `json:"state"`
		Failures int    `json:"failures"`
		Calls    int    `json:"calls"`
		Line     string `json:"line"`
	} `json:"steps"`
	Summary string `json:"summary"`
}

func renderBreaker(w io.Writer, c *chartCtx) error {
	var d breakerData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if len(d.Steps) == 0 || len(d.States) == 0 {
		return fmt.Errorf("no steps")
	}
	p := c.p
	c.open(w, p.T("web_chart_breaker_title", "Ticks", len(d.Steps)),
		p.T("web_chart_breaker_desc", "Last", len(d.Steps)-1, "Threshold", d.Threshold, "Cooldown", d.Cooldown),
		map[string]string{
			"x-label": p.T("web_chart_tick"), "y-label": p.T("web_chart_state"), "calls-label": p.T("web_chart_calls"),
			"play": p.T("web_chart_play"), "pause": p.T("web_chart_pause"), "at": p.T("web_chart_at", "N", "{N}", "Total", "{Total}"),
			"probe": p.T("web_chart_probe"), "after-label": p.T("web_chart_after"),
			"up": p.T("web_chart_up"), "down": p.T("web_chart_down"),
			// The dots (and the strip's cells) have three colours, one for each fate; the legend names each.
			"fate-ok-label": p.T("web_chart_fate_ok"), "fate-error-label": p.T("web_chart_fate_error"),
			"fate-refused-label": p.T("web_chart_fate_refused"),
		})
	fmt.Fprintf(w, `<div class="chart-steps"><button type="button" class="button step-first" title="%s" aria-label="%s">◀◀</button>`+
		`<button type="button" class="button step-back" title="%s" aria-label="%s">◀</button>`+
		`<button type="button" class="button step-play">%s</button>`+
		`<button type="button" class="button step-next" title="%s" aria-label="%s">▶</button>`+
		`<span class="step-at" aria-live="polite"></span></div>`+"\n",
		html.EscapeString(p.T("web_chart_first")), html.EscapeString(p.T("web_chart_first")),
		html.EscapeString(p.T("web_chart_back")), html.EscapeString(p.T("web_chart_back")),
		html.EscapeString(p.T("web_chart_play")),
		html.EscapeString(p.T("web_chart_next")), html.EscapeString(p.T("web_chart_next")))
	w.Write([]byte(`<div class="breaker-strip" aria-hidden="true"></div>` + "\n"))
	c.canvas(w, "short", p.T("web_chart_breaker_title", "Ticks", len(d.Steps)))
	w.Write([]byte(`<pre class="chart-now" aria-live="polite"></pre>` + "\n"))
	c.data(w)
	yes, no := p.T("web_chart_yes"), p.T("web_chart_no")
	var rows [][]string
	for _, s := range d.Steps {
		up, called := p.T("web_chart_down"), no
		if s.Up {
			up = p.T("web_chart_up")
		}
		if s.Called {
			called = yes
		}
		rows = append(rows, []string{strconv.Itoa(s.Tick), up, s.During, called, s.Result, s.State, strconv.Itoa(s.Failures), strconv.Itoa(s.Calls)})
	}
	c.table(w, d.Summary, []string{p.T("web_chart_tick"), p.T("web_chart_provider"), p.T("web_chart_during"), p.T("web_chart_called"),
		p.T("web_chart_result"), p.T("web_chart_after"), p.T("web_chart_failures"), p.T("web_chart_calls")}, rows)
	w.Write([]byte("</figure>\n"))
	return nil
}

// depthData is what the amplification lesson's depthchart program prints: the calls each layer of
// a chain gets for one user request when everything below fails, for a few numbers of tries.
type depthData struct {
	Depth  int `json:"depth"`
	Series []struct {
		Tries  int      `json:"tries"`
		Layers []string `json:"layers"`
		Calls  []int    `json:"calls"`
	} `json:"series"`
}

func renderDepth(w io.Writer, c *chartCtx) error {
	var d depthData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if len(d.Series) == 0 || len(d.Series[0].Layers) == 0 {
		return fmt.Errorf("no series")
	}
	p := c.p
	labels := map[string]string{"x-label": p.T("web_chart_layer"), "y-label": p.T("web_chart_layer_calls")}
	head := []string{p.T("web_chart_layer")}
	for i, s := range d.Series {
		if len(s.Calls) != len(d.Series[0].Layers) {
			return fmt.Errorf("series %d: %d calls for %d layers", i, len(s.Calls), len(d.Series[0].Layers))
		}
		name := p.N("web_chart_tries", s.Tries)
		labels[fmt.Sprintf("series-%d", i)] = name
		head = append(head, name)
	}
	c.open(w, p.T("web_chart_depth_title", "Depth", d.Depth), p.T("web_chart_depth_desc", "Depth", d.Depth, "Top", d.Series[0].Layers[0]), labels)
	c.canvas(w, "", p.T("web_chart_depth_title", "Depth", d.Depth))
	c.data(w)
	var rows [][]string
	for li, layer := range d.Series[0].Layers {
		row := []string{layer}
		for _, s := range d.Series {
			row = append(row, strconv.Itoa(s.Calls[li]))
		}
		rows = append(rows, row)
	}
	c.table(w, p.T("web_chart_depth_title", "Depth", d.Depth), head, rows)
	w.Write([]byte("</figure>\n"))
	return nil
}

// failoverData is what the amplification lesson's failoverchart program prints: second by second,
// for each protection, the attempts that reached the database, its answers, the useful ones, the
// attempts lost and its queue; and the second from which it answered everyone (-1: never).
type failoverData struct {
	Seconds  int `json:"seconds"`
	Capacity int `json:"capacity"`
	Users    int `json:"users"`
	DownFrom int `json:"down_from"`
	DownTo   int `json:"down_to"`
	Runs     []struct {
		Name     string `json:"name"`
		Load     []int  `json:"load"`
		Answers  []int  `json:"answers"`
		Useful   []int  `json:"useful"`
		Lost     []int  `json:"lost"`
		Queue    []int  `json:"queue"`
		Recovery int    `json:"recovery"`
	} `json:"runs"`
}

// failoverMetrics are the series of a failover run the reader can choose, by their JSON names.
var failoverMetrics = []string{"load", "useful", "queue", "lost"}

func renderFailover(w io.Writer, c *chartCtx) error {
	var d failoverData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if len(d.Runs) == 0 || d.Seconds <= 0 {
		return fmt.Errorf("no runs")
	}
	p := c.p
	labels := map[string]string{
		"x-label": p.T("web_chart_second"), "capacity-label": p.T("web_chart_db_capacity"),
		"outage-label": p.T("web_chart_outage"),
	}
	var metricNames []string
	for _, m := range failoverMetrics {
		labels["metric-"+m] = p.T("web_chart_metric_" + m)
		metricNames = append(metricNames, p.T("web_chart_metric_"+m))
	}
	c.open(w, p.T("web_chart_failover_title"), p.T("web_chart_failover_desc",
		"From", d.DownFrom, "To", d.DownTo-1, "Capacity", d.Capacity, "Users", d.Users, "Last", d.Seconds-1), labels)
	w.Write([]byte(`<div class="chart-controls">`))
	c.choices(w, "metric", p.T("web_chart_metric"), metricNames)
	w.Write([]byte("</div>\n"))
	c.canvas(w, "wide", p.T("web_chart_failover_title"))
	w.Write([]byte(`<ul class="chart-notes">`))
	for _, r := range d.Runs {
		note := p.T("web_chart_never", "Name", r.Name)
		if r.Recovery >= 0 {
			note = p.T("web_chart_recovered", "Name", r.Name, "T", r.Recovery)
		}
		fmt.Fprintf(w, "<li>%s</li>", html.EscapeString(note))
	}
	w.Write([]byte("</ul>\n"))
	c.data(w)
	head := []string{p.T("web_chart_second")}
	for _, r := range d.Runs {
		head = append(head, r.Name)
	}
	fmt.Fprintf(w, `<details class="chart-table"><summary>%s</summary>`+"\n", html.EscapeString(p.T("web_chart_table")))
	var rows [][]string
	for t := range d.Seconds {
		row := []string{strconv.Itoa(t)}
		for _, r := range d.Runs {
			row = append(row, fmt.Sprintf("%d / %d / %d", at(r.Load, t), at(r.Useful, t), at(r.Queue, t)))
		}
		rows = append(rows, row)
	}
	c.tableOnly(w, p.T("web_chart_failover_cells"), head, rows)
	w.Write([]byte("</details>\n</figure>\n"))
	return nil
}

// queueData is what the overload lesson's queuechart program prints: window by window, for each
// rule of the server's queue, the answers somebody still waited for and the answers to callers who
// had left; the demand and the capacity per window, and the ticks of the slow spell.
type queueData struct {
	Window   int `json:"window"`  // ticks a window
	TickMS   int `json:"tick_ms"` // milliseconds a tick
	Demand   int `json:"demand"`  // new calls a window
	Capacity int `json:"capacity"`
	SlowFrom int `json:"slow_from"` // the slow spell, in ticks: [SlowFrom, SlowTo)
	SlowTo   int `json:"slow_to"`
	Runs     []struct {
		Policy string `json:"policy"`
		Useful []int  `json:"useful"`
		Wasted []int  `json:"wasted"`
	} `json:"runs"`
}

func renderQueue(w io.Writer, c *chartCtx) error {
	var d queueData
	if err := json.Unmarshal(c.raw, &d); err != nil {
		return err
	}
	if len(d.Runs) == 0 || d.Window <= 0 || d.TickMS <= 0 || len(d.Runs[0].Useful) == 0 {
		return fmt.Errorf("no runs")
	}
	n := len(d.Runs[0].Useful)
	var policies []string
	for i, r := range d.Runs {
		if len(r.Useful) != n || len(r.Wasted) != n {
			return fmt.Errorf("run %d: %d and %d windows, want %d", i, len(r.Useful), len(r.Wasted), n)
		}
		policies = append(policies, r.Policy)
	}
	p := c.p
	span := d.Window * d.TickMS
	c.open(w, p.T("web_chart_queue_title"), p.T("web_chart_queue_desc",
		"Window", seconds(p, span), "Demand", d.Demand, "Capacity", d.Capacity,
		"From", seconds(p, d.SlowFrom*d.TickMS), "To", seconds(p, d.SlowTo*d.TickMS)),
		map[string]string{
			"x-label": p.T("web_chart_time_s"), "y-label": p.T("web_chart_queue_per_window"),
			"useful-label": p.T("web_chart_queue_useful"), "wasted-label": p.T("web_chart_queue_wasted"),
			"demand-label": p.T("web_chart_queue_demand"),
		})
	w.Write([]byte(`<div class="chart-controls">`))
	c.choices(w, "policy", p.T("web_chart_queue_policy"), policies)
	w.Write([]byte("</div>\n"))
	c.canvas(w, "wide", p.T("web_chart_queue_title"))
	c.data(w)
	head := []string{p.T("web_chart_time_s")}
	head = append(head, policies...)
	var rows [][]string
	for i := range n {
		row := []string{seconds(p, i*span) + "–" + seconds(p, (i+1)*span)}
		for _, r := range d.Runs {
			row = append(row, fmt.Sprintf("%d / %d", r.Useful[i], r.Wasted[i]))
		}
		rows = append(rows, row)
	}
	c.table(w, p.T("web_chart_queue_cells"), head, rows)
	w.Write([]byte("</figure>\n"))
	return nil
}

// ChartTitle tells whether text, the text of output block number block of a lesson, holds the data
// of a chart that `workbook serve` draws on the lesson page; if it does, it returns the chart's
// title in p's language and the id of its figure on the page (the fragment of its address). The
// terminal shows no such chart, so `workbook lesson` names it and says where to see it.
func ChartTitle(block int, text string, p *i18n.Printer) (title, id string, ok bool) {
	kind := chartKind(text)
	if kind == "" {
		return "", "", false
	}
	var d struct {
		Clients int               `json:"clients"`
		Depth   int               `json:"depth"`
		Steps   []json.RawMessage `json:"steps"`
	}
	if json.Unmarshal([]byte(text), &d) != nil {
		return "", "", false
	}
	switch kind {
	case "dots":
		title = p.N("web_chart_dots_title", d.Clients)
	case "breaker":
		title = p.T("web_chart_breaker_title", "Ticks", len(d.Steps))
	case "depth":
		title = p.T("web_chart_depth_title", "Depth", d.Depth)
	default:
		title = p.T("web_chart_" + kind + "_title")
	}
	return title, fmt.Sprintf("chart-%d", block), true
}
