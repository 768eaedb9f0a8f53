// Програмата amplification брои колко извиквания получава всяка услуга от графа, когато най-долната
// зависимост не отговаря и всеки слой изразходва всичките си опити.
//
// Употреба:
//
//	amplification [-graph ФАЙЛ] [-requests N] [-budget P]
//
// Графът е по една връзка на ред: „gateway -> orders x3“ значи, че gateway извиква orders и прави до
// 3 опита (извикване и две повторения). Празните редове и редовете, които започват с #, се
// прескачат. Без -graph се взема веригата от урока. Всяка услуга, която никой не извиква, получава N
// заявки. Бюджетът P казва колко процента от първите извиквания по една връзка могат да се добавят
// с повторения.
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

// lessonGraph е веригата от урока: четири слоя, всеки с по три опита.
const lessonGraph = `gateway -> orders x3
orders -> data x3
data -> pool x3
pool -> db x3
`

// Границите на аргументите. С тях всеки брой е най-много N·(1+K)^12 ≤ 10^6·11^12 < 3,2·10^18 и се
// побира в 64-битов int (до 9,2·10^18).
const (
	maxRequests = 1_000_000 // N, заявките към всеки вход
	maxTries    = 10        // K, опитите по една връзка
	maxLinks    = 12        // връзките в графа
)

// noBudget: няма бюджет, всеки слой изразходва всичките си опити.
const noBudget = -1

// edge е връзка в графа: from извиква to и прави до tries опита.
type edge struct {
	from, to string
	tries    int
}

// graph е графът на извикванията. services изброява услугите по реда на първото им споменаване.
type graph struct {
	services []string
	edges    []edge
}

func main() {
	fs := flag.NewFlagSet("amplification", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	graphFile := fs.String("graph", "", "файл с графа на извикванията (по подразбиране е графът от урока)")
	requests := fs.Int("requests", 1000, "заявки към всеки вход на графа")
	budget := fs.Int("budget", 10, "бюджет за повторения, процент от първите извиквания")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "употреба: amplification [-graph ФАЙЛ] [-requests N] [-budget P]")
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if fs.NArg() > 0 || *requests < 1 || *requests > maxRequests || *budget < 0 || *budget > 100 {
		fmt.Fprintln(os.Stderr, "нужно е: N от 1 до 1000000, P от 0 до 100, без излишни аргументи")
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
	fmt.Printf("заявки на входа: %d, бюджет за повторения: %d %%\n", *requests, *budget)
	for _, s := range g.services {
		fmt.Printf("%s: без бюджет %d, с бюджет %d\n", s, plain[s], limited[s])
	}
}

// readGraph чете графа от файла name, а ако name е празно, взема графа от урока.
func readGraph(name string) (graph, error) {
	if name == "" {
		return parseGraph("графът от урока", strings.NewReader(lessonGraph))
	}
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return graph{}, fmt.Errorf("файлът %s не съществува", name)
	}
	if err != nil {
		return graph{}, fmt.Errorf("не мога да прочета %s: %v", name, err)
	}
	defer f.Close()
	return parseGraph(name, f)
}

// parseGraph чете графа от текста: по една връзка „откъде -> накъде xN“ на ред.
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
			return graph{}, fmt.Errorf("%s:%d: очаква се „откъде -> накъде xN“ с N от 1 до 10, а тук е „%s“", name, n, line)
		}
		e := edge{from: f[0], to: f[2], tries: tries}
		if edges[[2]string{e.from, e.to}] {
			return graph{}, fmt.Errorf("%s:%d: връзката %s -> %s вече я има", name, n, e.from, e.to)
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
		return graph{}, fmt.Errorf("%s: в графа няма нито една връзка", name)
	}
	if len(g.edges) > maxLinks {
		return graph{}, fmt.Errorf("%s: връзките са %d, а може най-много %d, иначе броят на извикванията може да не се побере в int", name, len(g.edges), maxLinks)
	}
	return g, nil
}

// errCycle: в графа има цикъл и извикванията не могат да се преброят.
var errCycle = errors.New("в графа има цикъл: извикванията по него нямат край")

// count връща колко извиквания получава всяка услуга. Всеки вход получава requests заявки. По
// връзка с tries опита всяко извикване отгоре дава едно първо извикване надолу и до tries-1
// повторения. С бюджет (budget от 0 до 100) повторенията по една връзка са най-много budget
// процента от първите ѝ извиквания, закръглено надолу; budget == noBudget значи без бюджет.
func count(g graph, requests, budget int) (map[string]int, error) {
	// Твоят код е тук. Брой услугите отгоре надолу: услуга може да се брои, когато са преброени
	// всички, които я извикват. Входът на графа (никой не го извиква) получава requests заявки.
	// Ако някои услуги така и не могат да се преброят, в графа има цикъл: върни errCycle.
	// Пример за графа от урока има в условието (README.md).
	return map[string]int{}, nil
}
