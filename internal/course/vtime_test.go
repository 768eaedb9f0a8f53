package course

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/workbook-course/workbook/checker"
)

func TestVirtualLimits(t *testing.T) {
	fsys := fstest.MapFS{
		"exercises/v/exercise.yaml": {Data: []byte("order: 1\nlesson: l\ntime: virtual\n")},
		"exercises/p/exercise.yaml": {Data: []byte("order: 2\nlesson: l\n")},
	}
	c := New(fsys)
	for _, tt := range []struct {
		name string
		want bool
	}{{"v", true}, {"p", false}} {
		ex, err := c.Exercise(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		got := ex.Limits(checker.Limits{RunTime: time.Second})
		if ex.Virtual() != tt.want || got.Virtual != tt.want || got.RunTime != time.Second {
			t.Errorf("%s: Virtual() = %v, Limits = %+v; want virtual %v and the run time kept", tt.name, ex.Virtual(), got, tt.want)
		}
	}
}
