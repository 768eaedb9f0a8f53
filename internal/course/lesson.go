package course

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/workbook-course/workbook/internal/lesson"
)

// UnknownLessonError is a lesson asked for that the course does not have; Topics are the course's
// lessons, in course order.
type UnknownLessonError struct {
	Topic  string
	Topics []string
}

func (e *UnknownLessonError) Error() string { return fmt.Sprintf("no lesson %q", e.Topic) }

// ErrUnreadableLesson is a lesson file that does not parse far enough to be shown.
var ErrUnreadableLesson = errors.New("unreadable")

// Lesson reads the lesson on topic in lang, or in another language when it is not written in lang
// yet, and says which language it was read in and from which file. A lesson with problems is still
// given as far as it could be read: `workbook verify` and the tests are where authors hear about
// them.
func (c *Course) Lesson(topic, lang string) (l *lesson.Lesson, in, file string, err error) {
	topics, err := lesson.Topics(c.fsys, "lessons")
	if err != nil {
		return nil, "", "", err
	}
	if !contains(topics, topic) {
		return nil, "", "", c.unknownLesson(topic, lang, topics)
	}
	for _, in := range append([]string{lang}, OtherLangs(lang)...) {
		name := path.Join("lessons", topic, in+".md")
		data, err := fs.ReadFile(c.fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", "", err
		}
		if l, _ = lesson.Parse(name, data); l == nil {
			return nil, "", name, ErrUnreadableLesson
		}
		return l, in, name, nil
	}
	return nil, "", "", &UnknownLessonError{Topic: topic, Topics: topics}
}

// unknownLesson names the lessons in course order, as `workbook list` shows them.
func (c *Course) unknownLesson(topic, lang string, topics []string) error {
	if infos, err := c.Lessons(lang); err == nil {
		topics = topics[:0]
		for _, info := range infos {
			topics = append(topics, info.Topic)
		}
	}
	return &UnknownLessonError{Topic: topic, Topics: topics}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
