// Программа shed прогоняет очередь сервера по тактам, как модель queue из урока «Перегрузка», но с
// адаптивным правилом: пока очередь спокойна, сервер берёт запросы по порядку (FIFO), под перегрузкой
// — самые свежие (LIFO), а просроченные выбрасывает, не тратя на них работы.
//
// Использование:
//
//	shed [-rate N] [-wait N] [-tries N] [-high N] [-low N] [-slow-at T] [-slow-to T]
//	     [-target N] [-ticks N] [-window N]
//
// Без аргументов — сценарий урока: 8 вызовов за такт, ожидание 10 тактов, до трёх попыток, 10 ответов
// за такт и 4 с такта 20 по такт 49, цель 5 тактов, 200 тактов окнами по 25.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
)

// world — условия модели.
type world struct {
	rate   int // новых вызовов за такт
	wait   int // сколько тактов вызывающий ждёт ответа
	tries  int // попыток на вызов, первая тоже считается
	high   int // ответов за такт обычно
	low    int // ответов за такт с такта slowAt до такта slowTo (не включая его)
	slowAt int
	slowTo int
	target int // сколько тактов может ждать самый старый запрос, пока очередь считается спокойной
	ticks  int // сколько тактов прогнать
	window int // тактов в окне итогов
}

// request — запрос в очереди сервера.
type request struct {
	deadline int // такт, в который вызывающий перестанет ждать
	try      int // номер попытки, первая — 1
}

// counts — счётчики окна или всего прогона.
type counts struct {
	useful  int // ответы, которых ещё ждали
	waited  int // сколько тактов в сумме эти ответы ждали в очереди
	dropped int // просроченные запросы, выброшенные без работы
	retries int // повторы, вставшие в очередь
}

// server — очередь и счётчики одного прогона.
type server struct {
	w        world
	queue    []request // по порядку прихода: в начале самые старые
	lifo     bool      // true, пока очередь перегружена
	win, all counts    // текущее окно и весь прогон
	switches int       // сколько раз сервер переходил на LIFO
}

func main() {
	fs := flag.NewFlagSet("shed", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var w world
	fs.IntVar(&w.rate, "rate", 8, "новых вызовов за такт")
	fs.IntVar(&w.wait, "wait", 10, "сколько тактов вызывающий ждёт ответа")
	fs.IntVar(&w.tries, "tries", 3, "попыток на вызов")
	fs.IntVar(&w.high, "high", 10, "ответов за такт обычно")
	fs.IntVar(&w.low, "low", 4, "ответов за такт, пока сервер медленный")
	fs.IntVar(&w.slowAt, "slow-at", 20, "первый медленный такт")
	fs.IntVar(&w.slowTo, "slow-to", 50, "первый такт после медленных")
	fs.IntVar(&w.target, "target", 5, "сколько тактов может ждать самый старый запрос в спокойной очереди")
	fs.IntVar(&w.ticks, "ticks", 200, "сколько тактов прогнать")
	fs.IntVar(&w.window, "window", 25, "тактов в окне итогов")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: shed [-rate N] [-wait N] [-tries N] [-high N] [-low N] [-slow-at T] [-slow-to T] [-target N] [-ticks N] [-window N]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	switch {
	case fs.NArg() > 0:
		usageError(fs, "лишние аргументы: все числа задаются флагами")
	case w.rate < 0 || w.rate > 100:
		usageError(fs, "новых вызовов за такт — от 0 до 100")
	case w.wait < 1 || w.wait > 100:
		usageError(fs, "ожидание — от 1 до 100 тактов")
	case w.tries < 1 || w.tries > 5:
		usageError(fs, "попыток на вызов — от 1 до 5")
	case w.high < 0 || w.high > 1000 || w.low < 0 || w.low > 1000:
		usageError(fs, "ответов за такт — от 0 до 1000")
	case w.ticks < 1 || w.ticks > 2000 || w.window < 1 || w.window > 2000:
		usageError(fs, "тактов в прогоне и в окне — от 1 до 2000")
	case w.slowAt < 0 || w.slowAt > w.slowTo || w.slowTo > 2000:
		usageError(fs, "медленные такты: 0 ≤ slow-at ≤ slow-to ≤ 2000")
	case w.target < 0 || w.target > 1000:
		usageError(fs, "цель — от 0 до 1000 тактов")
	}
	s := &server{w: w}
	for t := range w.ticks {
		s.arrive(t)
		s.serve(t)
		if t%w.window == w.window-1 || t == w.ticks-1 {
			s.closeWindow(t)
		}
	}
	fmt.Printf("всего: %s, переключений на LIFO %d\n",
		s.all, s.switches)
}

// usageError объясняет, что не так с аргументами, показывает использование и завершает программу с
// кодом 2.
func usageError(fs *flag.FlagSet, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	fs.Usage()
	os.Exit(2)
}

// capacity — сколько ответов сервер успевает дать в такт t.
func (w world) capacity(t int) int {
	if t >= w.slowAt && t < w.slowTo {
		return w.low
	}
	return w.high
}

// arrive ставит в хвост очереди запросы такта t: сначала повторы тех, кто не дождался ответа к
// такту t и ещё может попробовать, потом новые вызовы. Брошенный запрос остаётся в очереди: сервер
// не знает, что его уже не ждут.
func (s *server) arrive(t int) {
	w := s.w
	// Очередь упорядочена по приходу, а значит, и по сроку: ищем первый запрос со сроком t.
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

// serve должна ответить в такт t на столько запросов, сколько успевает сервер (s.w.capacity(t)),
// выбирая их по правилу из условия: FIFO, пока очередь спокойна, LIFO, пока она перегружена, а
// просроченные выбрасывать. Счётчики окна — s.win, переключения на LIFO считает s.switches.
func (s *server) serve(t int) {
	// Ваш код здесь. Переключения печатаются в тот такт, когда случились:
	//	такт 31: LIFO, самый старый запрос пришёл в такт 25
	//	такт 70: FIFO, очередь пуста
	// Правила и примеры — в условии (README.md).
}

// closeWindow печатает итог окна, которое кончается тактом t, и начинает новое.
func (s *server) closeWindow(t int) {
	from := t - t%s.w.window
	fmt.Printf("такты %d–%d: %s\n", from, t, s.win)
	s.all.useful += s.win.useful
	s.all.waited += s.win.waited
	s.all.dropped += s.win.dropped
	s.all.retries += s.win.retries
	s.win = counts{}
}

// String — счётчики одной строкой, как их печатают окна и итог.
func (c counts) String() string {
	return fmt.Sprintf("полезных %d, ждали в среднем %s, выброшено %d, повторов %d",
		c.useful, mean(c.waited, c.useful), c.dropped, c.retries)
}

// mean — среднее ожидание в тактах, округлённое вниз до десятых, с запятой: sum тактов на n ответов.
// Без ответов — прочерк.
func mean(sum, n int) string {
	if n == 0 {
		return "—"
	}
	tenths := sum * 10 / n
	return fmt.Sprintf("%d,%d", tenths/10, tenths%10)
}
