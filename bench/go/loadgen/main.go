// Command loadgen is a closed-loop HTTP load generator for the ingest benchmark. A Node load
// generator used a large share of a core at high request rates, CPU that ingest, on the same
// cores, could not use; Go's net/http client needed almost as much, so this one uses fasthttp, which
// reuses its request and response objects and needs far less. It POSTs the bodies of a file (one JSON body
// per line, in turn) over keep-alive connections for a number of seconds, spread round-robin over
// one or more ingest URLs, and prints one JSON line: requests/s, failures and latency percentiles.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

type result struct {
	RequestsPerS float64 `json:"requestsPerS"`
	Requests     int     `json:"requests"`
	Failures     int64   `json:"failures"`
	P50Ms        float64 `json:"p50Ms"`
	P99Ms        float64 `json:"p99Ms"`
	// CPUSeconds is this process's own CPU time, so the benchmark can report what the load cost.
	CPUSeconds float64 `json:"cpuSeconds"`
}

func main() {
	urls := flag.String("urls", "", "comma-separated base URLs (one per ingest process)")
	path := flag.String("path", "/v1/track", "request path")
	bodies := flag.String("bodies", "", "file with one request body per line")
	auth := flag.String("auth", "", "Authorization header value")
	contentType := flag.String("content-type", "application/json", "Content-Type header value (analytics.js sends text/plain)")
	connections := flag.Int("connections", 32, "concurrent requests (each on its own keep-alive connection)")
	seconds := flag.Float64("seconds", 10, "how long to send")
	flag.Parse()

	lines, err := readLines(*bodies)
	if err != nil || len(lines) == 0 || *urls == "" {
		fmt.Fprintln(os.Stderr, "loadgen: need -urls and a non-empty -bodies file:", err)
		os.Exit(2)
	}
	targets := strings.Split(*urls, ",")
	client := &fasthttp.Client{MaxConnsPerHost: *connections, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}

	var next, failures atomic.Int64
	latencies := make([][]float64, *connections)
	until := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	started := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *connections; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			url := targets[w%len(targets)] + *path
			req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(res)
			for time.Now().Before(until) {
				body := lines[next.Add(1)%int64(len(lines))]
				t0 := time.Now()
				if post(client, req, res, url, *auth, *contentType, body) {
					latencies[w] = append(latencies[w], float64(time.Since(t0).Microseconds())/1000)
				} else {
					failures.Add(1)
				}
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(started).Seconds()

	var all []float64
	for _, l := range latencies {
		all = append(all, l...)
	}
	sort.Float64s(all)
	out, _ := json.Marshal(result{RequestsPerS: float64(len(all)) / elapsed, Requests: len(all), Failures: failures.Load(), P50Ms: percentile(all, 50), P99Ms: percentile(all, 99), CPUSeconds: cpuSeconds()})
	fmt.Println(string(out))
}

// post sends one request on a reused request and response pair and reports whether it was
// answered 200.
func post(client *fasthttp.Client, req *fasthttp.Request, res *fasthttp.Response, url, auth, contentType string, body []byte) bool {
	req.Reset()
	req.SetRequestURI(url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType(contentType)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.SetBodyRaw(body)
	return client.Do(req, res) == nil && res.StatusCode() == fasthttp.StatusOK
}

func readLines(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines [][]byte
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		if line := bytes.TrimSpace(scanner.Bytes()); len(line) > 0 {
			lines = append(lines, append([]byte(nil), line...))
		}
	}
	return lines, scanner.Err()
}

func cpuSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	seconds := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return seconds(usage.Utime) + seconds(usage.Stime)
}

func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p / 100 * float64(len(sorted)))
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}
