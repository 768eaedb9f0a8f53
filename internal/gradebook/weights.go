package gradebook

import (
	"errors"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// setWeights reads the weights file (see the package doc) into the columns; "" leaves every
// exercise at 1.
func (b *Book) setWeights(path string) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return &Error{Code: "weights_file", Report: path}
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		detail := err.Error()
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			detail = strings.TrimSpace(de.String())
			return &Error{Code: "weights_syntax", Report: path, Detail: detail, Student: strconv.Itoa(row)}
		}
		return &Error{Code: "weights_syntax", Report: path, Detail: detail}
	}
	have := map[string]int{}
	for i, c := range b.Exercises {
		have[c.Exercise] = i
	}
	var unknown []string
	for name := range raw {
		if _, ok := have[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return &Error{Code: "weights_unknown", Report: path, Detail: strings.Join(unknown, ", ")}
	}
	var missing []string
	sum := 0.0
	for i, c := range b.Exercises {
		v, ok := raw[c.Exercise]
		if !ok {
			missing = append(missing, c.Exercise)
			continue
		}
		var w float64
		switch x := v.(type) {
		case int64:
			w = float64(x)
		case float64:
			w = x
		default:
			return &Error{Code: "weights_value", Report: path, Detail: c.Exercise}
		}
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return &Error{Code: "weights_value", Report: path, Detail: c.Exercise}
		}
		b.Exercises[i].Weight = w
		sum += w
	}
	if len(missing) > 0 {
		return &Error{Code: "weights_missing", Report: path, Detail: strings.Join(missing, ", ")}
	}
	if sum <= 0 {
		return &Error{Code: "weights_zero", Report: path}
	}
	b.Weighted = true
	return nil
}
