// Програмата adaptive върти по тикове услуга с пул от обработчици и адаптивен лимит на
// едновременните заявки: AIMD или Vegas, както в библиотеката на Netflix concurrency-limits и в урока
// „Сървърът се пази сам“. От тик slow-at до тик slow-to базата отговаря по-бавно и лимитът трябва да
// го забележи.
//
// Употреба:
//
//	adaptive [-rule aimd|vegas] [-start N] [-max N] [-slow N] [-alpha N] [-beta N] [-workers N]
//	         [-work N] [-slow-work N] [-slow-at T] [-slow-to T] [-patience N] [-ticks N]
//	         [-window N] [ИДВАНИЯ ...]
//
// ИДВАНИЯ — колко заявки идват във всеки тик, в кръг. Без аргументи — сценарият от урока в тикове от
// 4 мс: AIMD с начален лимит 12 и праг 37 тика, 4 обработчика, 5 тика работа и 30 тика от тик 250 до
// тик 499, клиентът чака 75 тика, по заявка на тик 750 тика, прозорци от по 125.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// world — условията на прогона.
type world struct {
	rule     string // aimd или vegas
	start    int    // началният лимит
	max      int    // над това лимитът не расте
	slow     int    // AIMD: закъснение над slow е лош отговор
	alpha    int    // Vegas: опашка под alpha — лимитът расте
	beta     int    // Vegas: опашка над beta — лимитът пада
	workers  int    // обработчици
	work     int    // тикове работа на заявка обикновено
	slowWork int    // тикове работа на заявка, започната от slowAt до slowTo-1
	slowAt   int
	slowTo   int
	patience int   // колко тика клиентът чака отговор
	ticks    int   // колко тика идват заявки
	window   int   // тикове в прозорец
	arrivals []int // идвания на тик, в кръг
}

// limiter — адаптивният лимит: колко заявки да пуска вътре сега и какво да прави със закъснението
// на поредния отговор.
type limiter struct {
	w      world
	limit  int // текущият лимит, от 1 до w.max
	good   int // AIMD: добри отговори от последната промяна на лимита
	minRTT int // Vegas: най-малкото видяно закъснение; 0 — още нито едно
}

// tally — резултатът на прозореца: заявките, дошли в неговите тикове, и лимитът в края му.
type tally struct {
	ok, late, rejected int
	worst              int // най-дългото закъснение на отговор; -1 — нямаше отговори
	limit              int
}

// request — пусната заявка, докато е вътре.
type request struct {
	end  int // тикът на края
	took int // закъснението: краят минус идването
}

func main() {
	fs := flag.NewFlagSet("adaptive", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.StringVar(&w.rule, "rule", "aimd", "правило: aimd или vegas")
	fs.IntVar(&w.start, "start", 12, "начален лимит")
	fs.IntVar(&w.max, "max", 100, "най-голям лимит")
	fs.IntVar(&w.slow, "slow", 37, "AIMD: закъснение над него е лош отговор")
	fs.IntVar(&w.alpha, "alpha", 3, "Vegas: долен праг на опашката")
	fs.IntVar(&w.beta, "beta", 6, "Vegas: горен праг на опашката")
	fs.IntVar(&w.workers, "workers", 4, "обработчици")
	fs.IntVar(&w.work, "work", 5, "тикове работа на заявка")
	fs.IntVar(&w.slowWork, "slow-work", 30, "тикове работа в бавните тикове")
	fs.IntVar(&w.slowAt, "slow-at", 250, "първият бавен тик")
	fs.IntVar(&w.slowTo, "slow-to", 500, "първият тик след бавните")
	fs.IntVar(&w.patience, "patience", 75, "колко тика клиентът чака отговор")
	fs.IntVar(&w.ticks, "ticks", 750, "колко тика идват заявки")
	fs.IntVar(&w.window, "window", 125, "тикове в прозорец")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: adaptive [-rule aimd|vegas] [-start N] [-max N] [-slow N] [-alpha N] [-beta N] [-workers N] [-work N] [-slow-work N] [-slow-at T] [-slow-to T] [-patience N] [-ticks N] [-window N] [ИДВАНИЯ ...]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	w.arrivals = []int{1}
	if fs.NArg() > 0 {
		w.arrivals = nil
		if fs.NArg() > 20 {
			usageError(fs, "идванията в кръг са най-много 20 числа")
		}
		for _, a := range fs.Args() {
			n, err := strconv.Atoi(a)
			if err != nil || n < 0 || n > 20 {
				usageError(fs, "идванията на тик са цяло число от 0 до 20, а не "+strconv.Quote(a))
			}
			w.arrivals = append(w.arrivals, n)
		}
	}
	switch {
	case w.rule != "aimd" && w.rule != "vegas":
		usageError(fs, "правилото е aimd или vegas")
	case w.max < 1 || w.max > 1000 || w.start < 1 || w.start > w.max:
		usageError(fs, "лимитите: 1 ≤ start ≤ max ≤ 1000")
	case w.slow < 0 || w.slow > 1000 || w.patience < 0 || w.patience > 1000:
		usageError(fs, "прагът и чакането на клиента са от 0 до 1000 тика")
	case w.alpha < 0 || w.alpha > w.beta || w.beta > 1000:
		usageError(fs, "праговете на опашката: 0 ≤ alpha ≤ beta ≤ 1000")
	case w.workers < 1 || w.workers > 50:
		usageError(fs, "обработчиците са от 1 до 50")
	case w.work < 1 || w.work > 50 || w.slowWork < 1 || w.slowWork > 50:
		usageError(fs, "работата на заявка е от 1 до 50 тика")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тиковете с идвания и тиковете в прозорец са от 1 до 2000")
	case w.slowAt < 0 || w.slowAt > w.slowTo || w.slowTo > 2000:
		usageError(fs, "бавните тикове: 0 ≤ slow-at ≤ slow-to ≤ 2000")
	}
	fmt.Printf("правило %s, начален лимит %d\n", w.rule, w.start)
	for i, s := range serve(w) {
		from := i * w.window
		to := min(from+w.window, w.ticks) - 1
		worst := "—"
		if s.worst >= 0 {
			worst = strconv.Itoa(s.worst)
		}
		fmt.Printf("тикове %d–%d: навреме %d, късно %d, отказ %d, най-бавен отговор %s, лимит %d\n",
			from, to, s.ok, s.late, s.rejected, worst, s.limit)
	}
}

// usageError казва какво не е наред с аргументите, показва употребата и завършва програмата с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// done съобщава на лимита закъснението took на поредния отговор и променя лимита по правилото.
func (l *limiter) done(took int) {
	if l.w.rule == "aimd" {
		l.aimd(took)
	} else {
		l.vegas(took)
	}
}

// aimd: лош отговор (закъснение над w.slow) умножава лимита по 9/10 със закръгляне надолу, но не под
// 1, и започва броенето на добрите отговори отначало. Добрият отговор се добавя към броя; когато
// добрите отговори станат колкото лимита, лимитът расте с 1 (не над w.max) и броенето почва отначало.
func (l *limiter) aimd(took int) {
	// Твоят код тук: правилото е в коментара отгоре и в условието (README.md).
}

// vegas: minRTT е най-малкото видяно закъснение, включително това. Опашката се оценява като
// лимит × (took − minRTT) / took в цели числа. Опашка под alpha — лимитът расте с 1 (не над w.max),
// над beta — пада с 1 (не под 1).
func (l *limiter) vegas(took int) {
	// Твоят код тук: правилото е в коментара отгоре и в условието (README.md).
}

// serve върти услугата. Във всеки тик t първо отговарят заявките, които свършват в t (по реда, в
// който са пуснати), и всяко тяхно закъснение отива в лимита; после една по една идват заявките на
// тик t: ако вътре вече има колкото лимита — отказ, иначе заявката взима обработчика, който ще се
// освободи най-рано, и започва в t или когато той се освободи.
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
