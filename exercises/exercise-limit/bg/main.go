// Програмата limit върти по тикове услуга с пул от обработчици два пъти: първо без лимит, после с
// лимит на едновременните заявки, изведен от закона на Литъл, както в урока „Сървърът се пази сам“.
//
// Употреба:
//
//	limit [-workers N] [-work N] [-target N] [-patience N] [-ticks N] [-window N] [ИДВАНИЯ ...]
//
// ИДВАНИЯ — колко заявки идват във всеки тик, в кръг: „2 0 1“ значи 2, 0, 1, 2, 0, 1…
// Без аргументи — сценарият от урока: 4 обработчика, 5 тика работа на заявка, цел 15 тика, клиентът
// чака 75 тика, по заявка на тик 750 тика, прозорци от по 125 тика.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// world — условията на прогона.
type world struct {
	workers  int   // обработчици (връзки към базата)
	work     int   // тикове работа на заявка
	target   int   // допустимо закъснение в тикове: по него се смята лимитът
	patience int   // колко тика клиентът чака отговор
	ticks    int   // колко тика идват заявки
	window   int   // тикове в прозорец
	arrivals []int // идвания на тик, в кръг
}

// tally — резултатът на прозореца: заявките, дошли в неговите тикове.
type tally struct {
	ok, late, rejected int
	worst              int // най-дългото закъснение на отговор; -1 — нямаше отговори
}

func main() {
	fs := flag.NewFlagSet("limit", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.IntVar(&w.workers, "workers", 4, "обработчици")
	fs.IntVar(&w.work, "work", 5, "тикове работа на заявка")
	fs.IntVar(&w.target, "target", 15, "допустимо закъснение в тикове")
	fs.IntVar(&w.patience, "patience", 75, "колко тика клиентът чака отговор")
	fs.IntVar(&w.ticks, "ticks", 750, "колко тика идват заявки")
	fs.IntVar(&w.window, "window", 125, "тикове в прозорец")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: limit [-workers N] [-work N] [-target N] [-patience N] [-ticks N] [-window N] [ИДВАНИЯ ...]")
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
	case w.workers < 1 || w.workers > 50:
		usageError(fs, "обработчиците са от 1 до 50")
	case w.work < 1 || w.work > 50:
		usageError(fs, "работата на заявка е от 1 до 50 тика")
	case w.target < 0 || w.target > 1000 || w.patience < 0 || w.patience > 1000:
		usageError(fs, "целта и чакането на клиента са от 0 до 1000 тика")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тиковете с идвания и тиковете в прозорец са от 1 до 2000")
	}
	limit := littleLimit(w)
	fmt.Printf("лимит по закона на Литъл: %d × %d / %d = %d\n", w.workers, w.target, w.work, limit)
	show("без лимит", w, serve(w, -1))
	show(fmt.Sprintf("лимит %d", limit), w, serve(w, limit))
}

// usageError казва какво не е наред с аргументите, показва употребата и завършва програмата с код 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// littleLimit трябва да върне лимита на едновременните заявки по закона на Литъл: капацитетът на
// услугата (w.workers заявки за w.work тика) × допустимото закъснение w.target, закръглено надолу.
func littleLimit(w world) int {
	// Твоят код тук.
	return 0
}

// serve трябва да завърти услугата с лимит limit (-1 — без лимит) и да върне резултатите на
// прозорците, по един за всеки w.window тика с идвания (последният може да е по-къс). Правилата са в
// условието (README.md): коя заявка е вътре, кога е отказ, кой обработчик поема заявката, какво е
// „късно“ и „най-бавен отговор“.
func serve(w world, limit int) []tally {
	out := make([]tally, (w.ticks+w.window-1)/w.window)
	// Твоят код тук. Прозорец без нито един отговор отпечатва „—“: това е worst == -1.
	return out
}

// show отпечатва резултатите на прозорците от един прогон.
func show(name string, w world, list []tally) {
	fmt.Println(name)
	for i, s := range list {
		from := i * w.window
		to := min(from+w.window, w.ticks) - 1
		worst := "—"
		if s.worst >= 0 {
			worst = strconv.Itoa(s.worst)
		}
		fmt.Printf("  тикове %d–%d: навреме %d, късно %d, отказ %d, най-бавен отговор %s\n",
			from, to, s.ok, s.late, s.rejected, worst)
	}
}
