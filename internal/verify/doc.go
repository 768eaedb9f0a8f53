// Package verify is the author's workshop: it checks the course's content as an author needs it
// checked (`workbook verify`, and the repository's content tests), apart from the content model
// (package course) that the learner's commands read.
//
//	t, err := verify.FindTargets(fsys, nil) // the whole course, or the lesson and exercise paths given
//	r, err := verify.Run(ctx, t, verify.OpenCache(false), ui, nil)
//	r.WriteText(os.Stdout, ui) // or r.WriteJSON
//
// What it checks:
//
//   - lessons (Lessons): every program builds and prints the output shown, every quiz holds, the
//     Russian and Bulgarian files agree (lesson.Verify), and the exercises and lessons their front
//     matter names exist (Targets.CheckRefs);
//   - exercises (Exercises): every file is there in both languages, every reference solution passes
//     every case, every starter and kept wrong program fails, the generator draws cases;
//   - the strength of the cases (Mutate, MutateSample): every mutant of the reference solutions is
//     killed by a case or listed, with a reason, in the exercise's equivalent.txt (AuditAll does
//     both for many exercises at once).
//
// The verdicts of these costly steps are kept in a cache (Cache) keyed by everything they depend
// on, the workbook code among it: the running executable's bytes (OpenCache), or in the tests the
// source of the packages verify is built from (SourceHash, OpenCacheFor). Run gathers what one
// `workbook verify` found into a Report, with its messages in the author's language.
package verify
