// Программа amplification считает, сколько вызовов получает каждый сервис графа, когда самая
// нижняя зависимость не отвечает и каждый слой тратит все свои попытки.
//
// Использование:
//
//	amplification [-graph ФАЙЛ] [-requests N] [-budget P]
//
// Граф — по связи в строке: «gateway -> orders x3» значит, что gateway вызывает orders и делает до
// 3 попыток (вызов и два повтора). Пустые строки и строки, начинающиеся с #, пропускаются. Без
// -graph берётся цепочка из урока. Каждый сервис, которого никто не вызывает, получает N запросов.
// Бюджет P — сколько процентов от первых вызовов связи можно добавить повторами.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// lessonGraph — цепочка из урока: четыре слоя, у каждого по три попытки.
const lessonGraph = `gateway -> orders x3
orders -> data x3
data -> pool x3
pool -> db x3
`

// Границы аргументов. С ними любое число не больше N·(1+K)^12 ≤ 10^6·11^12 < 3,2·10^18 и помещается
// в 64-битный int (до 9,2·10^18).
const (
	maxRequests = 1_000_000 // N, запросы к каждому входу
	maxTries    = 10        // K, попытки по одной связи
	maxLinks    = 12        // связи в графе
)

// noBudget — бюджета нет: каждый слой тратит все свои попытки.
const noBudget = -1

// edge — связь графа: from вызывает to и делает до tries попыток.
type edge struct {
	from, to string
	tries    int
}

// graph — граф вызовов. services перечисляет сервисы в порядке первого упоминания.
type graph struct {
	services []string
	edges    []edge
}

func main() {
	fs := flag.NewFlagSet("amplification", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	graphFile := fs.String("graph", "", "файл с графом вызовов (по умолчанию — граф урока)")
	requests := fs.Int("requests", 1000, "запросов на каждый вход графа")
	budget := fs.Int("budget", 10, "бюджет повторов, процентов от первых вызовов")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "использование: amplification [-graph ФАЙЛ] [-requests N] [-budget P]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 || *requests < 1 || *requests > maxRequests || *budget < 0 || *budget > 100 {
		fmt.Fprintln(os.Stderr, "нужно: N от 1 до 1000000, P от 0 до 100, без лишних аргументов")
		fs.Usage()
		os.Exit(2)
	}
	g, err := readGraph(*graphFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	plain, err := count(g, *requests, noBudget)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	limited, err := count(g, *requests, *budget)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("запросов на входе: %d, бюджет повторов: %d %%\n", *requests, *budget)
	for _, s := range g.services {
		fmt.Printf("%s: без бюджета %d, с бюджетом %d\n", s, plain[s], limited[s])
	}
}

// readGraph читает граф из файла name или, если name пусто, берёт граф урока.
func readGraph(name string) (graph, error) {
	if name == "" {
		return parseGraph("граф урока", strings.NewReader(lessonGraph))
	}
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return graph{}, fmt.Errorf("файла %s нет", name)
	}
	if err != nil {
		return graph{}, fmt.Errorf("не удаётся прочитать %s: %v", name, err)
	}
	defer f.Close()
	return parseGraph(name, f)
}

// parseGraph разбирает граф: по связи «откуда -> куда xN» в строке.
func parseGraph(name string, r io.Reader) (graph, error) {
	var g graph
	seen := map[string]bool{}
	edges := map[[2]string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		var tries int
		var err error
		if len(f) == 4 && f[1] == "->" && strings.HasPrefix(f[3], "x") {
			tries, err = strconv.Atoi(f[3][1:])
		}
		if len(f) != 4 || f[1] != "->" || !strings.HasPrefix(f[3], "x") || err != nil || tries < 1 || tries > maxTries {
			return graph{}, fmt.Errorf("%s:%d: ожидается «откуда -> куда xN», N от 1 до 10, а здесь «%s»", name, n, line)
		}
		e := edge{from: f[0], to: f[2], tries: tries}
		if edges[[2]string{e.from, e.to}] {
			return graph{}, fmt.Errorf("%s:%d: связь %s -> %s уже есть", name, n, e.from, e.to)
		}
		edges[[2]string{e.from, e.to}] = true
		for _, s := range []string{e.from, e.to} {
			if !seen[s] {
				seen[s] = true
				g.services = append(g.services, s)
			}
		}
		g.edges = append(g.edges, e)
	}
	if err := sc.Err(); err != nil {
		return graph{}, err
	}
	if len(g.edges) == 0 {
		return graph{}, fmt.Errorf("%s: в графе нет ни одной связи", name)
	}
	if len(g.edges) > maxLinks {
		return graph{}, fmt.Errorf("%s: связей %d, а можно не больше %d, иначе число вызовов может не поместиться в int", name, len(g.edges), maxLinks)
	}
	return g, nil
}

// errCycle — в графе есть цикл, и сосчитать вызовы нельзя.
var errCycle = errors.New("в графе есть цикл: вызовы по нему не кончаются")

// count возвращает, сколько вызовов получает каждый сервис. Каждый вход получает requests
// запросов. По связи с tries попытками на каждый вызов сверху идёт первый вызов вниз и до
// tries-1 повторов. С бюджетом (budget от 0 до 100) повторов по связи не больше budget процентов
// от её первых вызовов, с округлением вниз; budget == noBudget — бюджета нет.
func count(g graph, requests, budget int) (map[string]int, error) {
	// Ваш код здесь. Посчитайте сервисы сверху вниз: сервис можно считать, когда посчитаны
	// все, кто его вызывает. Вход графа (его никто не вызывает) получает requests запросов.
	// Если какие-то сервисы так и не удалось посчитать, в графе цикл: верните errCycle.
	// Пример для графа урока — в условии (README.md).
	return map[string]int{}, nil
}
