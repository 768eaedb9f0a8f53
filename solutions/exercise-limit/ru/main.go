// Программа limit прогоняет по тактам сервис с пулом обработчиков дважды: сначала без предела, потом с
// пределом одновременных запросов, выведенным из закона Литтла, как в уроке «Сервер бережёт себя».
//
// Использование:
//
//	limit [-workers N] [-work N] [-target N] [-patience N] [-ticks N] [-window N] [ПРИХОДЫ ...]
//
// ПРИХОДЫ — сколько запросов приходит в каждый такт, по кругу: «2 0 1» значит 2, 0, 1, 2, 0, 1…
// Без аргументов — сценарий урока: 4 обработчика, 5 тактов работы на запрос, цель 15 тактов,
// клиент ждёт 75 тактов, по запросу в такт 750 тактов, окна по 125 тактов.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// world — условия прогона.
type world struct {
	workers  int   // обработчиков (соединений к базе)
	work     int   // тактов работы на запрос
	target   int   // допустимая задержка в тактах: по ней считают предел
	patience int   // сколько тактов клиент ждёт ответа
	ticks    int   // сколько тактов приходят запросы
	window   int   // тактов в окне итогов
	arrivals []int // приходов за такт, по кругу
}

// tally — итог окна: запросы, пришедшие в его такты.
type tally struct {
	ok, late, rejected int
	worst              int // самая долгая задержка ответа; -1 — ответов не было
}

func main() {
	fs := flag.NewFlagSet("limit", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.IntVar(&w.workers, "workers", 4, "обработчиков")
	fs.IntVar(&w.work, "work", 5, "тактов работы на запрос")
	fs.IntVar(&w.target, "target", 15, "допустимая задержка в тактах")
	fs.IntVar(&w.patience, "patience", 75, "сколько тактов клиент ждёт ответа")
	fs.IntVar(&w.ticks, "ticks", 750, "сколько тактов приходят запросы")
	fs.IntVar(&w.window, "window", 125, "тактов в окне итогов")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: limit [-workers N] [-work N] [-target N] [-patience N] [-ticks N] [-window N] [ПРИХОДЫ ...]")
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
	case w.workers < 1 || w.workers > 50:
		usageError(fs, "обработчиков — от 1 до 50")
	case w.work < 1 || w.work > 50:
		usageError(fs, "работы на запрос — от 1 до 50 тактов")
	case w.target < 0 || w.target > 1000 || w.patience < 0 || w.patience > 1000:
		usageError(fs, "цель и ожидание клиента — от 0 до 1000 тактов")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тактов прихода и тактов в окне — от 1 до 2000")
	}
	limit := littleLimit(w)
	fmt.Printf("предел по закону Литтла: %d × %d / %d = %d\n", w.workers, w.target, w.work, limit)
	show("без предела", w, serve(w, -1))
	show(fmt.Sprintf("предел %d", limit), w, serve(w, limit))
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// littleLimit — предел одновременных запросов по закону Литтла: пропускная способность (workers
// запросов за work тактов) × допустимая задержка target, округлённо вниз.
func littleLimit(w world) int {
	return w.workers * w.target / w.work
}

// serve прогоняет сервис с пределом limit (-1 — без предела) и возвращает итоги окон. Запрос внутри,
// пока его не обслужили; сверх предела он сразу получает отказ. Обработчики берут запросы по порядку
// прихода, каждый держит обработчик work тактов.
func serve(w world, limit int) []tally {
	out := make([]tally, (w.ticks+w.window-1)/w.window)
	for i := range out {
		out[i].worst = -1
	}
	free := make([]int, w.workers) // такт, с которого обработчик свободен
	var finish []int               // такты окончания пущенных запросов, по порядку
	done := 0                      // сколько из них закончено к текущему такту
	for t := range w.ticks {
		for done < len(finish) && finish[done] <= t {
			done++
		}
		s := &out[t/w.window]
		for range w.arrivals[t%len(w.arrivals)] {
			if limit >= 0 && len(finish)-done >= limit {
				s.rejected++
				continue
			}
			k := 0
			for i := range free {
				if free[i] < free[k] {
					k = i
				}
			}
			end := max(t, free[k]) + w.work
			free[k] = end
			finish = append(finish, end)
			took := end - t
			s.worst = max(s.worst, took)
			if took > w.patience {
				s.late++
			} else {
				s.ok++
			}
		}
	}
	return out
}

// show печатает итоги окон одного прогона.
func show(name string, w world, list []tally) {
	fmt.Println(name)
	for i, s := range list {
		from := i * w.window
		to := min(from+w.window, w.ticks) - 1
		worst := "—"
		if s.worst >= 0 {
			worst = strconv.Itoa(s.worst)
		}
		fmt.Printf("  такты %d–%d: вовремя %d, поздно %d, отказ %d, худшая задержка %s\n",
			from, to, s.ok, s.late, s.rejected, worst)
	}
}
