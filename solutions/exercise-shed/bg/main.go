// Програмата shed изиграва опашката на сървър по тикове като модела queue от урока „Претоварване“, но
// с адаптивно правило: докато опашката е спокойна, сървърът взема заявките поред (FIFO), при
// претоварване — най-пресните (LIFO), а просрочените изхвърля, без да губи време за тях.
//
// Употреба:
//
//	shed [-rate N] [-wait N] [-tries N] [-high N] [-low N] [-slow-at T] [-slow-to T]
//	     [-target N] [-ticks N] [-window N]
//
// Без аргументи — сценарият от урока: 8 извиквания на тик, чакане 10 тика, до три опита, 10 отговора
// на тик и 4 от тик 20 до тик 49, цел 5 тика, 200 тика на прозорци по 25.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
)

// world описва условията на модела.
type world struct {
	rate   int // нови извиквания на тик
	wait   int // колко тика извикващият чака отговор
	tries  int // опити за извикване, заедно с първия
	high   int // отговори на тик нормално
	low    int // отговори на тик от тик slowAt до тик slowTo (без него)
	slowAt int
	slowTo int
	target int // колко тика може да чака най-старата заявка, докато опашката се смята за спокойна
	ticks  int // колко тика да се изиграят
	window int // тикове в прозорец на сбора
}

// request е заявка в опашката на сървъра.
type request struct {
	deadline int // тикът, в който извикващият спира да чака
	try      int // номер на опита; първият е 1
}

// counts са броячите на прозорец или на цялото изиграване.
type counts struct {
	useful  int // отговори, които още някой чака
	waited  int // колко тика общо тези отговори са чакали в опашката
	dropped int // просрочени заявки, изхвърлени без работа
	retries int // повторения, застанали в опашката
}

// server пази опашката и броячите на едно изиграване.
type server struct {
	w        world
	queue    []request // по реда на идване: най-старите са в началото
	lifo     bool      // true, докато опашката е претоварена
	win, all counts    // текущият прозорец и цялото изиграване
	switches int       // колко пъти сървърът е минавал на LIFO
}

func main() {
	fs := flag.NewFlagSet("shed", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.IntVar(&w.rate, "rate", 8, "нови извиквания на тик")
	fs.IntVar(&w.wait, "wait", 10, "колко тика извикващият чака отговор")
	fs.IntVar(&w.tries, "tries", 3, "опити за извикване")
	fs.IntVar(&w.high, "high", 10, "отговори на тик нормално")
	fs.IntVar(&w.low, "low", 4, "отговори на тик, докато сървърът е бавен")
	fs.IntVar(&w.slowAt, "slow-at", 20, "първият бавен тик")
	fs.IntVar(&w.slowTo, "slow-to", 50, "първият тик след бавните")
	fs.IntVar(&w.target, "target", 5, "колко тика може да чака най-старата заявка в спокойна опашка")
	fs.IntVar(&w.ticks, "ticks", 200, "колко тика да се изиграят")
	fs.IntVar(&w.window, "window", 25, "тикове в прозорец на сбора")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: shed [-rate N] [-wait N] [-tries N] [-high N] [-low N] [-slow-at T] [-slow-to T] [-target N] [-ticks N] [-window N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	switch {
	case fs.NArg() > 0:
		usageError(fs, "излишни аргументи: всички числа се задават с флагове")
	case w.rate < 0 || w.rate > 100:
		usageError(fs, "новите извиквания на тик са от 0 до 100")
	case w.wait < 1 || w.wait > 100:
		usageError(fs, "чакането е от 1 до 100 тика")
	case w.tries < 1 || w.tries > 5:
		usageError(fs, "опитите за извикване са от 1 до 5")
	case w.high < 0 || w.high > 1000 || w.low < 0 || w.low > 1000:
		usageError(fs, "отговорите на тик са от 0 до 1000")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тиковете в изиграването и в прозореца са от 1 до 2000")
	case w.slowAt < 0 || w.slowAt > w.slowTo || w.slowTo > 2000:
		usageError(fs, "бавните тикове: 0 ≤ slow-at ≤ slow-to ≤ 2000")
	case w.target < 0 || w.target > 1000:
		usageError(fs, "целта е от 0 до 1000 тика")
	}
	s := &server{w: w}
	for t := range w.ticks {
		s.arrive(t)
		s.serve(t)
		if t%w.window == w.window-1 || t == w.ticks-1 {
			s.closeWindow(t)
		}
	}
	fmt.Printf("общо: %s, превключвания на LIFO %d\n",
		s.all, s.switches)
}

// usageError казва какво не е наред с аргументите, показва употребата и спира програмата с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// capacity казва колко отговора сървърът смогва да даде в тик t.
func (w world) capacity(t int) int {
	if t >= w.slowAt && t < w.slowTo {
		return w.low
	}
	return w.high
}

// arrive слага в края на опашката заявките от тик t: първо повторенията на онези, които не са
// дочакали отговор до тик t и имат още опити, после новите извиквания. Зарязаната заявка остава в
// опашката: сървърът не знае, че вече никой не я чака.
func (s *server) arrive(t int) {
	w := s.w
	// Опашката е подредена по идване, значи и по срок: търсим първата заявка със срок t.
	first := sort.Search(len(s.queue), func(i int) bool { return s.queue[i].deadline >= t })
	var again []request
	for _, r := range s.queue[first:] {
		if r.deadline > t {
			break
		}
		if r.try < w.tries {
			again = append(again, request{t + w.wait, r.try + 1})
		}
	}
	s.win.retries += len(again)
	s.queue = append(s.queue, again...)
	for range w.rate {
		s.queue = append(s.queue, request{t + w.wait, 1})
	}
}

// serve отговаря в тик t на толкова заявки, колкото сървърът смогва. Преди работа решава дали
// опашката е претоварена: ако най-старата заявка чака повече от целта, сървърът минава на LIFO.
// Просрочените заявки се изхвърлят, без да отнемат отговор. Празната опашка връща FIFO.
func (s *server) serve(t int) {
	if !s.lifo && len(s.queue) != 0 {
		oldest := s.queue[0].deadline - s.w.wait
		if t-oldest > s.w.target {
			s.lifo = true
			s.switches++
			fmt.Printf("тик %d: LIFO, най-старата заявка е дошла в тик %d\n", t, oldest)
		}
	}
	for left := s.w.capacity(t); left > 0 && len(s.queue) > 0; {
		r := s.pop()
		if r.deadline <= t {
			s.win.dropped++
			continue
		}
		s.win.useful++
		s.win.waited += t - (r.deadline - s.w.wait)
		left--
	}
	if s.lifo && len(s.queue) == 0 {
		s.lifo = false
		fmt.Printf("тик %d: FIFO, опашката е празна\n", t)
	}
}

// pop изважда заявка от опашката: от началото, докато сървърът е във FIFO, от края в LIFO.
func (s *server) pop() request {
	if s.lifo {
		last := len(s.queue) - 1
		r := s.queue[last]
		s.queue = s.queue[:last]
		return r
	}
	r := s.queue[0]
	s.queue = s.queue[1:]
	return r
}

// closeWindow печата сбора на прозореца, който свършва с тик t, и започва нов.
func (s *server) closeWindow(t int) {
	from := t - t%s.w.window
	fmt.Printf("тикове %d–%d: %s\n", from, t, s.win)
	s.all.useful += s.win.useful
	s.all.waited += s.win.waited
	s.all.dropped += s.win.dropped
	s.all.retries += s.win.retries
	s.win = counts{}
}

// String дава броячите на един ред, както ги печатат прозорците и сборът.
func (c counts) String() string {
	return fmt.Sprintf("полезни %d, чакали средно %s, изхвърлени %d, повторения %d",
		c.useful, mean(c.waited, c.useful), c.dropped, c.retries)
}

// mean е средното чакане в тикове, закръглено надолу до десети, със запетая: sum тика за n отговора.
// Без отговори — тире.
func mean(sum, n int) string {
	if n == 0 {
		return "—"
	}
	tenths := sum * 10 / n
	return fmt.Sprintf("%d,%d", tenths/10, tenths%10)
}
