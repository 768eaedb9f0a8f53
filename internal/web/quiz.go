package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/lesson"
)

// attempt is the learner's way through a lesson's quizzes on the page: the first answer to each
// quiz counts. When every quiz has one, the score is recorded, as `workbook quiz` records an
// attempt, and a new attempt begins.
type attempt struct {
	first map[int]bool // quiz index -> whether the first answer was right
	wrong map[int]int  // quiz index -> wrong answers so far
}

type quizReply struct {
	Correct bool   `json:"correct"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`     // bug quiz: the corrected line(s), as highlighted HTML
	Why     string `json:"why,omitempty"`     // choice and predict: why the answer chosen is right or wrong, HTML
	Explain string `json:"explain,omitempty"` // the quiz's explanation, HTML: after a right answer or a second wrong one
	Score   string `json:"score,omitempty"`   // once every quiz of the lesson is answered
	Right   int    `json:"right"`
	Total   int    `json:"total"`
}

// apiQuiz checks an answer to a quiz against the lesson, on the server: the page never holds the
// answers. choice and predict: the number of the answer; bug: the line number; fill: the text of
// the blank.
// apiOpen records that the learner opened a lesson, as `workbook lesson` does. The lesson page
// asks for it once it has loaded: a GET of the page itself changes nothing, so that another site
// that makes the browser fetch a lesson changes no one's progress.
func (s *Server) apiOpen(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	if _, err := s.lessonPage(req.Topic, req.Lang); errors.Is(err, errNotFound) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_lesson", "Name", req.Topic)}
	} else if err != nil {
		return nil, err
	}
	if err := s.session(req.Lang, p).OpenLesson(req.Topic); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

func (s *Server) apiQuiz(ctx context.Context, p *i18n.Printer, req *request) (any, error) {
	lp, err := s.lessonPage(req.Topic, req.Lang)
	if errors.Is(err, errNotFound) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_lesson", "Name", req.Topic)}
	}
	if err != nil {
		return nil, err
	}
	l := lp.l
	if req.Quiz < 0 || req.Quiz >= len(l.Quizzes) {
		return nil, &apiError{http.StatusNotFound, p.T("web_err_no_quiz", "N", req.Quiz)}
	}
	q := l.Quizzes[req.Quiz]
	if strings.TrimSpace(req.Answer) == "" {
		return nil, &apiError{http.StatusBadRequest, p.T("web_quiz_no_answer")}
	}
	correct := judge(q, req.Answer)
	reply := &quizReply{Correct: correct, Total: len(l.Quizzes)}
	if correct {
		reply.Message = p.T("web_quiz_right")
		if q.Kind == lesson.Bug {
			for _, b := range q.Blocks {
				if b.Kind == lesson.FixBlock {
					reply.Fix = string(highlight("go", strings.TrimSuffix(b.Text, "\n")))
				}
			}
		}
	} else {
		reply.Message = p.T("web_quiz_wrong_" + string(q.Kind))
	}
	done, right, wrong := s.answered(lp.topic, req.Quiz, correct, len(l.Quizzes))
	if err := teach(reply, q, req.Answer, correct || wrong >= 2, p); err != nil {
		return nil, err
	}
	if done {
		reply.Right = right
		reply.Score = p.N("web_quiz_score", right, "Total", len(l.Quizzes))
		if _, err := s.session(req.Lang, p).RecordQuiz(lp.topic, right, len(l.Quizzes)); err != nil {
			s.logf("%v", err)
		} else if s.cfg.Place != nil {
			reply.Score += " " + p.T("web_quiz_saved")
		}
	}
	return reply, nil
}

// judge says whether answer is right for quiz q, as `workbook quiz` judges it. The page numbers
// choices from 0; the lesson engine from 1.
func judge(q *lesson.Quiz, answer string) bool {
	if q.Kind == lesson.Choice || q.Kind == lesson.Predict {
		n, err := strconv.Atoi(strings.TrimSpace(answer))
		if err != nil {
			return false
		}
		answer = strconv.Itoa(n + 1)
	}
	return q.Judge(answer)
}

// teach puts into reply what the lesson says about the answer, as `workbook quiz` shows it: the
// explanation of the option chosen, and, once the answer is right or the learner has missed twice,
// the quiz's own explanation (before that it would give the answer away).
func teach(reply *quizReply, q *lesson.Quiz, answer string, final bool, p *i18n.Printer) error {
	if n, err := strconv.Atoi(strings.TrimSpace(answer)); err == nil && (q.Kind == lesson.Choice || q.Kind == lesson.Predict) {
		if why := q.Why(n); why != "" {
			h, err := renderMarkdown("**"+p.T("web_quiz_why", "N", n+1)+"** "+why, false)
			if err != nil {
				return err
			}
			reply.Why = string(h)
		}
	}
	if final && q.Explain != "" {
		h, err := renderMarkdown(q.Explain, false)
		if err != nil {
			return err
		}
		reply.Explain = string(h)
	}
	return nil
}

// answered notes the answer to quiz qi of topic and reports whether every quiz now has a first
// answer, with how many of those were right, and how many wrong answers quiz qi has had.
func (s *Server) answered(topic string, qi int, correct bool, total int) (done bool, right, wrong int) {
	s.quizMu.Lock()
	defer s.quizMu.Unlock()
	a := s.attempts[topic]
	if a == nil {
		a = &attempt{first: map[int]bool{}, wrong: map[int]int{}}
		s.attempts[topic] = a
	}
	if _, ok := a.first[qi]; !ok {
		a.first[qi] = correct
	}
	if !correct {
		a.wrong[qi]++
	}
	wrong = a.wrong[qi]
	if len(a.first) < total {
		return false, 0, wrong
	}
	right = 0
	for _, ok := range a.first {
		if ok {
			right++
		}
	}
	delete(s.attempts, topic)
	return true, right, wrong
}
