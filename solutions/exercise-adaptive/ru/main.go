// Программа adaptive прогоняет по тактам сервис с пулом обработчиков и адаптивным пределом
// одновременных запросов: AIMD или Vegas, как в библиотеке Netflix concurrency-limits и в уроке
// «Сервер бережёт себя». С такта slow-at по такт slow-to база отвечает медленнее, и предел должен это
// заметить.
//
// Использование:
//
//	adaptive [-rule aimd|vegas] [-start N] [-max N] [-slow N] [-alpha N] [-beta N] [-workers N]
//	         [-work N] [-slow-work N] [-slow-at T] [-slow-to T] [-patience N] [-ticks N]
//	         [-window N] [ПРИХОДЫ ...]
//
// ПРИХОДЫ — сколько запросов приходит в каждый такт, по кругу. Без аргументов — сценарий урока в
// тактах по 4 мс: AIMD с начальным пределом 12 и порогом 37 тактов, 4 обработчика, 5 тактов работы и
// 30 тактов с такта 250 по такт 499, клиент ждёт 75 тактов, по запросу в такт 750 тактов, окна по 125.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// world — условия прогона.
type world struct {
	rule     string // aimd или vegas
	start    int    // начальный предел
	max      int    // выше этого предел не растёт
	slow     int    // AIMD: задержка больше slow — плохой ответ
	alpha    int    // Vegas: очередь меньше alpha — предел растёт
	beta     int    // Vegas: очередь больше beta — предел падает
	workers  int    // обработчиков
	work     int    // тактов работы на запрос обычно
	slowWork int    // тактов работы на запрос, начатый с slowAt по slowTo-1
	slowAt   int
	slowTo   int
	patience int   // сколько тактов клиент ждёт ответа
	ticks    int   // сколько тактов приходят запросы
	window   int   // тактов в окне итогов
	arrivals []int // приходов за такт, по кругу
}

// limiter — адаптивный предел: сколько запросов пускать внутрь сейчас и что делать с задержкой
// очередного ответа.
type limiter struct {
	w      world
	limit  int // текущий предел, от 1 до w.max
	good   int // AIMD: хороших ответов с последнего изменения предела
	minRTT int // Vegas: наименьшая задержка из виденных; 0 — ещё ни одной
}

// tally — итог окна: запросы, пришедшие в его такты, и предел в конце окна.
type tally struct {
	ok, late, rejected int
	worst              int // самая долгая задержка ответа; -1 — ответов не было
	limit              int
}

// request — пущенный запрос, пока он внутри.
type request struct {
	end  int // такт окончания
	took int // задержка: окончание минус приход
}

func main() {
	fs := flag.NewFlagSet("adaptive", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.StringVar(&w.rule, "rule", "aimd", "правило: aimd или vegas")
	fs.IntVar(&w.start, "start", 12, "начальный предел")
	fs.IntVar(&w.max, "max", 100, "наибольший предел")
	fs.IntVar(&w.slow, "slow", 37, "AIMD: задержка больше — плохой ответ")
	fs.IntVar(&w.alpha, "alpha", 3, "Vegas: нижний порог очереди")
	fs.IntVar(&w.beta, "beta", 6, "Vegas: верхний порог очереди")
	fs.IntVar(&w.workers, "workers", 4, "обработчиков")
	fs.IntVar(&w.work, "work", 5, "тактов работы на запрос")
	fs.IntVar(&w.slowWork, "slow-work", 30, "тактов работы в медленные такты")
	fs.IntVar(&w.slowAt, "slow-at", 250, "первый медленный такт")
	fs.IntVar(&w.slowTo, "slow-to", 500, "первый такт после медленных")
	fs.IntVar(&w.patience, "patience", 75, "сколько тактов клиент ждёт ответа")
	fs.IntVar(&w.ticks, "ticks", 750, "сколько тактов приходят запросы")
	fs.IntVar(&w.window, "window", 125, "тактов в окне итогов")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: adaptive [-rule aimd|vegas] [-start N] [-max N] [-slow N] [-alpha N] [-beta N] [-workers N] [-work N] [-slow-work N] [-slow-at T] [-slow-to T] [-patience N] [-ticks N] [-window N] [ПРИХОДЫ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	w.arrivals = []int{1}
	if fs.NArg() > 0 {
		w.arrivals = nil
		if fs.NArg() > 20 {
			usageError(fs, "приходов по кругу — не больше 20 чисел")
		}
		for _, a := range fs.Args() {
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 || n > 20 {
				usageError(fs, "приходов за такт — целое от 0 до 20, а не "+strconv.Quote(a))
			}
			w.arrivals = append(w.arrivals, n)
		}
	}
	switch {
	case w.rule != "aimd" && w.rule != "vegas":
		usageError(fs, "правило — aimd или vegas")
	case w.max < 1 || w.max > 1000 || w.start < 1 || w.start > w.max:
		usageError(fs, "пределы: 1 ≤ start ≤ max ≤ 1000")
	case w.slow < 0 || w.slow > 1000 || w.patience < 0 || w.patience > 1000:
		usageError(fs, "порог и ожидание клиента — от 0 до 1000 тактов")
	case w.alpha < 0 || w.alpha > w.beta || w.beta > 1000:
		usageError(fs, "пороги очереди: 0 ≤ alpha ≤ beta ≤ 1000")
	case w.workers < 1 || w.workers > 50:
		usageError(fs, "обработчиков — от 1 до 50")
	case w.work < 1 || w.work > 50 || w.slowWork < 1 || w.slowWork > 50:
		usageError(fs, "работы на запрос — от 1 до 50 тактов")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тактов прихода и тактов в окне — от 1 до 2000")
	case w.slowAt < 0 || w.slowAt > w.slowTo || w.slowTo > 2000:
		usageError(fs, "медленные такты: 0 ≤ slow-at ≤ slow-to ≤ 2000")
	}
	fmt.Printf("правило %s, начальный предел %d\n", w.rule, w.start)
	for i, s := range serve(w) {
		from := i * w.window
		to := min(from+w.window, w.ticks) - 1
		worst := "—"
		if s.worst >= 0 {
			worst = strconv.Itoa(s.worst)
		}
		fmt.Printf("такты %d–%d: вовремя %d, поздно %d, отказ %d, худшая задержка %s, предел %d\n",
			from, to, s.ok, s.late, s.rejected, worst, s.limit)
	}
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// done сообщает пределу задержку took очередного ответа и меняет предел по правилу.
func (l *limiter) done(took int) {
	if l.w.rule == "aimd" {
		l.aimd(took)
	} else {
		l.vegas(took)
	}
}

// aimd: плохой ответ (задержка больше w.slow) умножает предел на 9/10, округляя вниз, но не ниже 1,
// и начинает счёт хороших ответов заново. Хороший ответ прибавляется к счёту; когда хороших ответов
// набралось столько, каков предел, предел растёт на 1 (не выше w.max), а счёт начинается заново.
func (l *limiter) aimd(took int) {
	if took > l.w.slow {
		l.limit = max(1, l.limit*9/10)
		l.good = 0
		return
	}
	l.good++
	if l.good >= l.limit {
		l.limit = min(l.w.max, l.limit+1)
		l.good = 0
	}
}

// vegas: minRTT — наименьшая задержка из виденных, этот ответ включительно. Очередь оценивается как
// предел × (took − minRTT) / took в целых числах. Очередь меньше alpha — предел растёт на 1 (не выше
// w.max), больше beta — падает на 1 (не ниже 1).
func (l *limiter) vegas(took int) {
	if l.minRTT == 0 || took < l.minRTT {
		l.minRTT = took
	}
	queue := l.limit * (took - l.minRTT) / took
	switch {
	case queue < l.w.alpha:
		l.limit = min(l.w.max, l.limit+1)
	case queue > l.w.beta:
		l.limit = max(1, l.limit-1)
	}
}

// serve прогоняет сервис. В каждый такт t сначала отвечают запросы, которые кончаются в t (в порядке,
// в каком их пустили), и каждая их задержка идёт в предел; потом по одному приходят запросы такта t:
// внутри уже столько, каков предел, — отказ, иначе запрос берёт обработчик, который освободится раньше
// всех, и начинает в t или когда тот освободится.
func serve(w world) []tally {
	out := make([]tally, (w.ticks+w.window-1)/w.window)
	for i := range out {
		out[i].worst = -1
	}
	l := &limiter{w: w, limit: w.start}
	free := make([]int, w.workers)
	var inside []request
	for t := range w.ticks {
		kept := inside[:0]
		for _, r := range inside {
			if r.end == t {
				l.done(r.took)
			} else {
				kept = append(kept, r)
			}
		}
		inside = kept
		s := &out[t/w.window]
		for range w.arrivals[t%len(w.arrivals)] {
			if len(inside) >= l.limit {
				s.rejected++
				continue
			}
			k := 0
			for i := range free {
				if free[i] < free[k] {
					k = i
				}
			}
			begin := max(t, free[k])
			work := w.work
			if begin >= w.slowAt && begin < w.slowTo {
				work = w.slowWork
			}
			free[k] = begin + work
			r := request{free[k], free[k] - t}
			inside = append(inside, r)
			s.worst = max(s.worst, r.took)
			if r.took > w.patience {
				s.late++
			} else {
				s.ok++
			}
		}
		s.limit = l.limit
	}
	return out
}
