// Package static holds the browser's own files, embedded: the page's styles and script that
// `workbook serve` serves (package web), and the charts' script with the vendored Chart.js, which
// report.html of `workbook grade` carries beside it too (package grade), so that a scenario case's
// chart is drawn by the same code in the browser and in the report, offline in both.
//
//	js, err := static.FS.ReadFile("charts.js")
package static

import "embed"

// FS holds app.css, app.js, favicon.svg, charts.js (the charts of the lessons and of the scenario
// cases), chart.umd.min.js (Chart.js) and chart.LICENSE.txt (its licence).
//
//go:embed app.css app.js favicon.svg charts.js chart.umd.min.js chart.LICENSE.txt
var FS embed.FS

// ChartFiles are the files that draw a chart, in the order a page loads them: Chart.js, then
// charts.js.
var ChartFiles = []string{"chart.umd.min.js", "charts.js"}
