package storm

import (
	"reflect"
	"testing"
)

// TestLessonFigures pins the figures the retry-storm lesson quotes.
func TestLessonFigures(t *testing.T) {
	tests := []struct {
		rule  Rule
		cost  int
		ticks int
		want  Result // Load is not compared
	}{
		{Now, 0, 600, Result{Served: 2000, Half: 120, All: 139, Requests: 241000, Peak: 2000}},
		{Fixed, 0, 600, Result{Served: 2000, Half: 300, All: 490, Requests: 61000, Peak: 2000}},
		{Double, 0, 600, Result{Served: 150, Half: -1, All: -1, Requests: 19850, Peak: 2000}},
		{Double, 0, 12000, Result{Served: 2000, Half: 4055, All: 7855, Requests: 55000, Peak: 2000}},
		{Now, 10, 600, Result{Served: 0, Half: -1, All: -1, Requests: 1200000, Peak: 2000}},
		{Fixed, 10, 600, Result{Served: 0, Half: -1, All: -1, Requests: 120000, Peak: 2000}},
		{Double, 10, 600, Result{Served: 0, Half: -1, All: -1, Requests: 20000, Peak: 2000}},
	}
	for _, tt := range tests {
		p := Lesson()
		p.Rule, p.Cost, p.Ticks = tt.rule, tt.cost, tt.ticks
		got := Run(p)
		got.Load = nil
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v cost %d ticks %d:\ngot  %+v\nwant %+v", tt.rule, tt.cost, tt.ticks, got, tt.want)
		}
	}
}

// TestNaiveAgrees checks that the bucketed run and the naive run agree tick by tick.
func TestNaiveAgrees(t *testing.T) {
	scenarios := []Params{
		Lesson(),
		{Clients: 300, Down: 40, Rate: 7, Cost: 10, Base: 1, Cap: 64, Seed: 1, Ticks: 900},
		{Clients: 1, Down: 0, Rate: 1, Cost: 0, Base: 1, Cap: 1, Seed: 0, Ticks: 5},
		{Clients: 500, Down: 30, Rate: 3, Cost: 50, Base: 3, Cap: 40, Seed: 65536, Ticks: 700},
		{Clients: 120, Down: 1000, Rate: 5, Cost: 0, Base: 2, Cap: 9, Seed: 42, Ticks: 300},
		{Clients: 2000, Down: 100, Rate: 50, Cost: 0, Base: 1, Cap: 200, Seed: 7, Ticks: 600, Attempts: 9},
		{Clients: 400, Down: 20, Rate: 9, Cost: 10, Base: 1, Cap: 30, Seed: 3, Ticks: 400, Attempts: 1},
	}
	for _, p := range scenarios {
		for _, rule := range Rules() {
			p.Rule = rule
			got, want := Run(p), RunNaive(p)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: bucketed and naive differ:\nbucketed %+v\nnaive    %+v", p, got, want)
			}
		}
	}
}

func TestGrowth(t *testing.T) {
	p := Lesson()
	var got []int
	for k := 1; k <= 10; k++ {
		got = append(got, p.Growth(k))
	}
	want := []int{1, 2, 4, 8, 16, 32, 64, 128, 200, 200}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Growth(1..10) = %v, want %v", got, want)
	}
}

func TestRand(t *testing.T) {
	r := NewRand(7)
	var got []int
	for range 5 {
		got = append(got, r.Intn(65537))
	}
	want := []int{599, 44999, 32612, 21105, 10061}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seeds after 7 = %v, want %v", got, want)
	}
}

func TestParseRule(t *testing.T) {
	for _, r := range Rules() {
		got, err := ParseRule(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRule(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := ParseRule("sometimes"); err == nil {
		t.Error("ParseRule(sometimes): want an error")
	}
}

func TestValidate(t *testing.T) {
	bad := []func(*Params){
		func(p *Params) { p.Clients = 0 },
		func(p *Params) { p.Down = -1 },
		func(p *Params) { p.Rate = -1 },
		func(p *Params) { p.Cost = 100 },
		func(p *Params) { p.Base = 0 },
		func(p *Params) { p.Cap = 0 },
		func(p *Params) { p.Seed = 65537 },
		func(p *Params) { p.Ticks = 0 },
		func(p *Params) { p.Rule = 6 },
		func(p *Params) { p.Attempts = -1 },
		func(p *Params) { p.Attempts = MaxTicks + 1 },
	}
	for i, change := range bad {
		p := Lesson()
		change(&p)
		if p.Validate() == nil {
			t.Errorf("case %d: %+v should not validate", i, p)
		}
	}
	if err := Lesson().Validate(); err != nil {
		t.Errorf("Lesson(): %v", err)
	}
}

// BenchmarkMillion runs a million clients for ten simulated minutes (6000 ticks)
// against the lesson's server, bucketed and naive, in two scenarios: full jitter
// with free refusals (most clients are still waiting at the end) and doubling
// with costly refusals (nobody is ever served). BENCHMARKS.md has the figures.
//
//	go test -run '^$' -bench Million -benchtime 1x ./internal/storm
func BenchmarkMillion(b *testing.B) {
	scenarios := []struct {
		name string
		rule Rule
		cost int
	}{
		{"full", Full, 0},
		{"double-cost10", Double, 10},
	}
	for _, sc := range scenarios {
		p := Lesson()
		p.Rule, p.Cost, p.Clients, p.Ticks = sc.rule, sc.cost, 1_000_000, 6000
		b.Run(sc.name+"/bucketed", func(b *testing.B) {
			for b.Loop() {
				Run(p)
			}
		})
		b.Run(sc.name+"/naive", func(b *testing.B) {
			for b.Loop() {
				RunNaive(p)
			}
		})
	}
}
