package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MergeError says why reports cannot be merged; Code is a machine code (the CLI's message ID suffix)
// and the other fields name what is at fault.
type MergeError struct {
	Code    string // no_results, other_grading, duplicate, duplicate_shard, missing_shards, mixed_shards
	Report  string
	Student string
	Detail  string
}

func (e *MergeError) Error() string {
	var parts []string
	for _, s := range []string{e.Report, e.Student, e.Detail} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return "merge: " + e.Code + ": " + strings.Join(parts, ": ")
}

// ReadReport reads the results.json of a report folder.
func ReadReport(dir string) (*Report, error) {
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, &MergeError{Code: "no_results", Report: dir}
	}
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ResultsFile), err)
	}
	// A report of grader 9 or older counted an unchanged starter as an error: read as today's.
	for i, st := range rep.Students {
		if st.Status == StatusError && st.Result != nil && st.Result.Verdict == Unchanged {
			rep.Students[i].Status = StatusUnchanged
			rep.Summary.Error--
			rep.Summary.Unchanged++
		}
	}
	return &rep, nil
}

// Merge joins the reports of the slices of one grading into the report a single run would have
// made. The reports must come from the same exercise, cases and limits (the same Config); when they
// are shards they must be all the shards of one cut, each once; a student may appear only once.
func Merge(dirs []string) (*Report, error) {
	if len(dirs) == 0 {
		return nil, &MergeError{Code: "no_results"}
	}
	reps := make([]*Report, len(dirs))
	for i, dir := range dirs {
		rep, err := ReadReport(dir)
		if err != nil {
			return nil, err
		}
		reps[i] = rep
	}
	first := reps[0]
	out := &Report{Exercise: first.Exercise, Titles: first.Titles, Config: first.Config, Cases: first.Cases, Solutions: first.Solutions, ForcedLang: first.ForcedLang,
		Seed: first.Seed, Roster: first.Roster, MoodleLang: first.MoodleLang, Due: first.Due, CopyThreshold: first.CopyThreshold}
	if err := checkShards(reps, dirs, out); err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for i, rep := range reps {
		for _, st := range rep.Students {
			if prev, dup := seen[st.Name]; dup {
				return nil, &MergeError{Code: "duplicate", Report: dirs[i], Student: st.Name, Detail: prev}
			}
			seen[st.Name] = dirs[i]
			out.Students = append(out.Students, st)
		}
	}
	sort.Slice(out.Students, func(i, j int) bool { return out.Students[i].Name < out.Students[j].Name })
	out.Finalize()
	return out, nil
}

// checkShards makes sure the reports are the shards of one grading (out's), each once and all of
// them, or whole-class reports alone.
func checkShards(reps []*Report, dirs []string, out *Report) error {
	first := reps[0]
	// Which cut: every report a shard of the same n, each shard once; or no shards at all.
	shards := map[string]string{}
	total := 0
	for i, rep := range reps {
		dir := dirs[i]
		if rep.Config != out.Config || rep.Exercise != out.Exercise {
			return &MergeError{Code: "other_grading", Report: dir, Detail: rep.Exercise + " " + rep.Config + " ≠ " + out.Exercise + " " + out.Config}
		}
		if (rep.Shard == "") != (first.Shard == "") {
			return &MergeError{Code: "mixed_shards", Report: dir, Detail: "a whole-class report among shards"}
		}
		if rep.Shard == "" {
			continue
		}
		sh, err := ParseShard(rep.Shard)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		if total == 0 {
			total = sh.N
		} else if sh.N != total {
			return &MergeError{Code: "mixed_shards", Report: dir, Detail: rep.Shard}
		}
		if prev, dup := shards[rep.Shard]; dup {
			return &MergeError{Code: "duplicate_shard", Report: dir, Detail: rep.Shard, Student: prev}
		}
		shards[rep.Shard] = dir
	}
	if total > 0 {
		var missing []string
		for k := 1; k <= total; k++ {
			if _, ok := shards[Shard{K: k, N: total}.String()]; !ok {
				missing = append(missing, Shard{K: k, N: total}.String())
			}
		}
		if len(missing) > 0 {
			return &MergeError{Code: "missing_shards", Detail: strings.Join(missing, ", ")}
		}
	}
	return nil
}
