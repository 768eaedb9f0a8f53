package storm

import "testing"

func TestTmpCount(t *testing.T) {
	r := Run(million())
	t.Logf("requests %d served %d", r.Requests, r.Served)
	p := million(); p.Rule = Double
	r = Run(p)
	t.Logf("double requests %d served %d", r.Requests, r.Served)
}
