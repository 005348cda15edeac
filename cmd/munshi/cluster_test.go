package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/store"
)

// buildMunshi builds this command into a temporary directory and returns
// the binary's path: the tests that run Munshi as separate processes start
// what `go build` makes, flags, environment and all.
func buildMunshi(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "munshi")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// roster is who writes to the cluster: the demo's users and enough more
// of each role for every sender to be its own person.
func roster(owners, sales, accounts int) loadtest.Roster {
	r := loadtest.Roster{Owners: []string{demo.OwnerPhone}, Sales: []string{demo.SalesPhone, "+919900000004"},
		Accounts: []string{demo.AccountsPhone}}
	more := func(list []string, n, block int) []string {
		for k := len(list); k < n; k++ {
			list = append(list, fmt.Sprintf("+9197%02d%06d", block, k))
		}
		return list[:n]
	}
	r.Owners, r.Sales, r.Accounts = more(r.Owners, owners, 1), more(r.Sales, sales, 2), more(r.Accounts, accounts, 3)
	return r
}

// seedCluster fills an empty database once, before any instance starts:
// the demo distributor, every person of r as a user, and stock that no
// run of orders uses up.
func seedCluster(t testing.TB, dsn string, r loadtest.Roster) {
	t.Helper()
	ctx := context.Background()
	books, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer books.Close()
	if _, err := demo.Seed(ctx, books, time.Now()); err != nil {
		t.Fatal(err)
	}
	var users []domain.User
	for role, phones := range map[domain.Role][]string{domain.RoleOwner: r.Owners, domain.RoleSales: r.Sales, domain.RoleAccounts: r.Accounts} {
		for _, p := range phones {
			users = append(users, domain.User{Phone: p, Name: string(role) + " " + p[len(p)-4:], Role: role})
		}
	}
	if err := books.UpsertUsers(ctx, users); err != nil {
		t.Fatal(err)
	}
	products, err := books.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range products {
		products[i].StockReady = 100_000_000
	}
	if err := books.UpsertProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
}

// instance is one `munshi serve` process.
type instance struct {
	URL string // http://127.0.0.1:port
	cmd *exec.Cmd
	log *os.File
	// exited is closed once the process has ended.
	exited chan struct{}
}

var listening = regexp.MustCompile(`msg="munshi is listening" addr=(\S+)`)

// startInstance runs `munshi serve` with exactly env (nothing of the
// test's own environment but PATH and HOME), waits until it answers
// /readyz, and stops it when the test ends.
func startInstance(t testing.TB, bin string, env map[string]string) *instance {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir()}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	logf, err := os.CreateTemp(t.TempDir(), "munshi-*.log")
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in := &instance{cmd: cmd, log: logf, exited: make(chan struct{})}
	addr := make(chan string, 1)
	var copied sync.WaitGroup
	copied.Add(1)
	go func() {
		defer copied.Done()
		lines := bufio.NewScanner(stderr)
		lines.Buffer(make([]byte, 64<<10), 1<<20)
		for lines.Scan() {
			fmt.Fprintln(logf, lines.Text())
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(logf, stderr)
	}()
	go func() {
		copied.Wait() // Wait closes the pipe: read it to the end first
		cmd.Wait()
		close(in.exited)
	}()
	t.Cleanup(func() { in.stop(t) })
	select {
	case a := <-addr:
		in.URL = "http://" + a
	case <-in.exited:
		t.Fatalf("munshi serve exited at start:\n%s", in.logTail())
	case <-time.After(60 * time.Second):
		t.Fatalf("munshi serve did not listen within a minute:\n%s", in.logTail())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(in.URL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return in
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/readyz: %v\n%s", in.URL, err, in.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends the process at once, as kill -9 does, and waits until it is
// gone.
func (in *instance) kill() {
	in.cmd.Process.Kill()
	<-in.exited
}

// stop asks the process to shut down, as a deployment does, and kills it
// if it has not within its shutdown time. Log lines at error level are
// reported with the test's output.
func (in *instance) stop(t testing.TB) {
	select {
	case <-in.exited:
	default:
		in.cmd.Process.Signal(os.Interrupt)
		select {
		case <-in.exited:
		case <-time.After(30 * time.Second):
			in.cmd.Process.Kill()
			<-in.exited
		}
	}
	if errs := in.logLines("level=ERROR"); len(errs) > 0 {
		t.Logf("%s logged %d errors, the first: %s", in.URL, len(errs), errs[0])
	}
	in.log.Close()
}

// logLines returns the lines of the instance's log that contain s.
func (in *instance) logLines(s string) []string {
	raw, _ := os.ReadFile(in.log.Name())
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

func (in *instance) logTail() string {
	raw, _ := os.ReadFile(in.log.Name())
	return string(raw[max(0, len(raw)-4000):])
}
