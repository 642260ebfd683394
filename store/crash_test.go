package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The crash tests run the test binary again as a child that does the
// work and reports each acknowledged step on stdout; the parent SIGKILLs
// it at chosen points, reopens the store and checks that everything
// acknowledged survived and that the work finishes.
const (
	crashChildEnv = "FLOWCABAL_STORE_CRASH_CHILD"
	crashRootEnv  = "FLOWCABAL_STORE_CRASH_ROOT"
	crashStartEnv = "FLOWCABAL_STORE_CRASH_START"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(crashChildEnv); mode != "" {
		os.Exit(crashChild(mode, os.Getenv(crashRootEnv)))
	}
	os.Exit(m.Run())
}

// crashChild is the child's work. Lines it prints:
//
//	progress N/T       a file scanned
//	indexed            Index returned
//	job HASH           a summary committed
//	drained            the queue is empty
//	ack I TARGET VERSION HASH   Persist returned
func crashChild(mode, root string) int {
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	opts := Options{LockWait: 5 * time.Second, Command: "flowcabal test-child " + mode, jobDone: func(j Job) { say("job %s", j.Hash) }}
	s, err := Open(ctx, root, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	switch mode {
	case "index":
		if _, err := s.Index(ctx, func(done, total int, file string) { say("progress %d/%d", done, total) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		say("indexed")
		if _, err := s.Drain(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		say("drained")
	case "hold":
		say("ready")
		time.Sleep(time.Minute) // until killed
	case "curate":
		// A restarted child retries from the first unacknowledged persist,
		// as an editor would.
		first, _ := strconv.Atoi(os.Getenv(crashStartEnv))
		for i := max(first, 1); i < 100000; i++ {
			target := fmt.Sprintf("manuscript/chapter-%02d", 11+i%3)
			res, err := s.Persist(ctx, curatedText(i), target, []string{"v" + strconv.Itoa(i)})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 3
			}
			say("ack %d %s %d %s", i, res.Target, res.Version, res.Hash)
		}
	}
	s.Close()
	return 0
}

// curatedText is the i-th content persisted by the curation child: large
// enough that a kill often lands inside a write.
func curatedText(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Chapter draft %d\n\n", i)
	for p := 0; p < 400; p++ {
		fmt.Fprintf(&b, "Paragraph %d of draft %d: Elizabeth and Jane walked to Meryton; 寶玉與黛玉在園中說話。\n\n", p, i)
	}
	return b.String()
}

// child starts the test binary in mode on root and returns it with a
// reader of its lines.
func child(t *testing.T, mode, root string, env ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), crashChildEnv+"="+mode, crashRootEnv+"="+root), env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(stdout)
}

func kill(t *testing.T, cmd *exec.Cmd, lines *bufio.Scanner) {
	t.Helper()
	if !tryKill(t, cmd, lines) {
		t.Fatal("the child finished before it could be killed")
	}
}

// tryKill SIGKILLs the child and reports whether the signal killed it
// (false: it had finished its work and exited by itself).
func tryKill(t *testing.T, cmd *exec.Cmd, lines *bufio.Scanner) bool {
	t.Helper()
	cmd.Process.Signal(syscall.SIGKILL)
	go io.Copy(io.Discard, struct{ io.Reader }{readerOf(lines)})
	err := cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return true
	}
	if err != nil {
		t.Fatalf("child failed: %v", err)
	}
	return false
}

// readerOf drains what is left of a scanner.
func readerOf(sc *bufio.Scanner) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		for sc.Scan() {
		}
		pw.Close()
	}()
	return pr
}

// checkDB verifies the file's structure with bbolt's own checker.
func checkDB(t *testing.T, root string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(root, ".flowcabal", "project.db"), 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("database does not open after the kill: %v", err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("database damaged: %v", err)
		}
		return nil
	})
}

func TestCrashDuringIndexing(t *testing.T) {
	root := t.TempDir()
	makeCorpusProject(t, root, "hongloumeng", 100)
	total := 0

	// 1. Kill in the middle of the scan, at a random point of it each
	// round: nothing was acknowledged, and the next run starts from what
	// the killed one left.
	scanKills := killRounds(1)
	for round := 0; round < scanKills; round++ {
		cmd, lines := child(t, "index", root)
		at := 0.1 + 0.85*rand.Float64()
		for lines.Scan() {
			var done int
			if _, err := fmt.Sscanf(lines.Text(), "progress %d/%d", &done, &total); err == nil && float64(done) >= at*float64(total) {
				break
			}
		}
		kill(t, cmd, lines)
		checkDB(t, root)
	}
	t.Logf("killed the scan at %d random points; the database opened after each", scanKills)

	// 2. Kill after the scan, while it commits (or just after).
	cmd, lines := child(t, "index", root)
	for lines.Scan() {
		var done int
		if _, err := fmt.Sscanf(lines.Text(), "progress %d/%d", &done, &total); err == nil && done == total {
			break
		}
	}
	time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
	kill(t, cmd, lines)
	checkDB(t, root)

	// 3. Let it index, kill it while it summarises, several times, after
	// a random number of summaries each time.
	var acked []string
	kills := 0
	for round := 0; round < killRounds(3); round++ {
		cmd, lines = child(t, "index", root)
		want := 1 + rand.IntN(20)
		got, drained := 0, false
		for lines.Scan() {
			if lines.Text() == "drained" {
				drained = true
				break
			}
			if h, ok := strings.CutPrefix(lines.Text(), "job "); ok {
				acked = append(acked, h)
				if got++; got == want {
					break
				}
			}
		}
		if drained {
			// Earlier rounds left less work than this one wanted to cut.
			if err := cmd.Wait(); err != nil {
				t.Fatalf("round %d: child: %v", round, err)
			}
			t.Logf("the queue finished in round %d", round)
			break
		}
		if got < want {
			t.Fatalf("round %d: child stopped after %d summaries", round, got)
		}
		time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
		if !tryKill(t, cmd, lines) {
			t.Logf("the queue finished in round %d, before the kill", round)
			break
		}
		checkDB(t, root)
		kills++
	}
	t.Logf("%d kills while summarising, %d summaries acknowledged", kills, len(acked))

	// Everything acknowledged is there before any new work.
	s := openStore(t, root, Options{})
	st, err := s.Stats()
	if err != nil || st.Chapters != 120 || st.Characters != 100 {
		t.Fatalf("after the kill: %+v, %v", st, err)
	}
	s.view(func(tx *bolt.Tx) error {
		for _, h := range acked {
			if tx.Bucket(bLevels).Get([]byte(h)) == nil {
				t.Errorf("acknowledged summary %s lost", h)
			}
			if tx.Bucket(bQueue).Get([]byte(h)) != nil {
				t.Errorf("acknowledged summary %s still queued", h)
			}
		}
		return nil
	})
	if st.PendingSummaries == 0 && kills == killRounds(3) {
		t.Error("the kills left no pending summaries; they came too late to test anything")
	}
	// The queue finishes, and the result equals a clean index.
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(); st.PendingSummaries != 0 {
		t.Errorf("queue did not finish: %d pending", st.PendingSummaries)
	}
	for _, r := range mustResources(t, s) {
		if lv, _ := s.Level(r.Path, 0); summarizable(r) && (lv.Pending || lv.Stale) {
			t.Errorf("%s has no current L0 after the queue finished: %+v", r.Path, lv)
		}
	}
	got := dumpDerived(t, s)
	fresh := openStore(t, copyProject(t, root), Options{})
	fresh.Index(context.Background(), nil)
	fresh.Drain(context.Background())
	if want := dumpDerived(t, fresh); got != want {
		t.Errorf("the store after kills differs from a clean index:\n%s", firstDiff(got, want))
	}
}

func mustResources(t *testing.T, s *Store) []Resource {
	rs, err := s.Resources(ResourceQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

type ack struct {
	i       int
	target  string
	version int
	hash    string
}

func TestCrashDuringCuration(t *testing.T) {
	root := copyProject(t, sampleProject)
	var all []ack
	recovered := 0
	rounds := killRounds(6)
	for round := 0; round < rounds; round++ {
		next := 1
		if len(all) > 0 {
			next = all[len(all)-1].i + 1
		}
		cmd, lines := child(t, "curate", root, crashStartEnv+"="+strconv.Itoa(next))
		want := 3 + rand.IntN(12)
		n := 0
		for n < want && lines.Scan() {
			var a ack
			if _, err := fmt.Sscanf(lines.Text(), "ack %d %s %d %s", &a.i, &a.target, &a.version, &a.hash); err != nil {
				t.Fatalf("child said %q", lines.Text())
			}
			all = append(all, a)
			n++
		}
		// Land inside the next Persist more often than not.
		time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		// Acknowledgements written before the kill count too.
		for lines.Scan() {
			var a ack
			if _, err := fmt.Sscanf(lines.Text(), "ack %d %s %d %s", &a.i, &a.target, &a.version, &a.hash); err == nil {
				all = append(all, a)
			}
		}
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the child was not killed", round)
		}
		checkDB(t, root)

		var logBuf strings.Builder
		s := openStore(t, root, Options{Logger: slog.New(slog.NewTextHandler(&logBuf, nil))}) // finishes interrupted writes
		if strings.Contains(logBuf.String(), "finished an interrupted curation") {
			recovered++
		}
		last := map[string]ack{}
		for _, a := range all {
			v, err := s.CuratedVersion(a.target, a.version)
			if err != nil || v.Hash != a.hash || hashOf([]byte(v.Content)) != a.hash {
				t.Fatalf("round %d: acknowledged version %d of %s lost: %v", round, a.version, a.target, err)
			}
			last[a.target] = a
		}
		for target, a := range last {
			rec, err := s.CuratedTarget(target)
			if err != nil || rec.Version < a.version || !rec.Written {
				t.Fatalf("round %d: %s record = %+v, %v (last ack version %d)", round, target, rec, err, a.version)
			}
			data, err := os.ReadFile(filepath.Join(root, rec.File))
			if err != nil || hashOf(data) != rec.Hash {
				t.Fatalf("round %d: %s on disk does not hold its recorded content: %v", round, rec.File, err)
			}
		}
		s.Close()
	}
	t.Logf("%d of %d kills landed between the record and the end of a file write", recovered, rounds)
	// Nothing duplicated: every content persisted, including the one a
	// kill interrupted and the child retried, appears once.
	s := openStore(t, root, Options{})
	for _, target := range []string{"manuscript/chapter-11", "manuscript/chapter-12", "manuscript/chapter-13"} {
		vs, err := s.CuratedVersions(target)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, v := range vs {
			if v.Origin == "persist" {
				seen[v.Hash]++
				if seen[v.Hash] > 1 {
					t.Errorf("%s: content %.12s persisted twice", target, v.Hash)
				}
			}
		}
	}
	// The queue finishes and a re-index finds nothing left to do twice.
	ctx := context.Background()
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if rep, _ := s.Index(ctx, nil); rep.Changed+rep.Added+rep.Removed != 0 || rep.PendingSummaries != 0 {
		t.Errorf("after recovery: %+v", rep)
	}
}

// TestLockHeldByAnotherProcess: a second process never hangs on a held
// store; it fails naming the holder, or reads a copy when asked to, and
// the store opens normally once the holder is gone (even killed).
func TestLockHeldByAnotherProcess(t *testing.T) {
	root := copyProject(t, sampleProject)
	s := openStore(t, root, Options{})
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	cmd, lines := child(t, "hold", root)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("child said %q", lines.Text())
	}
	_, err := Open(context.Background(), root, Options{LockWait: 300 * time.Millisecond})
	var le *LockedError
	if !errors.As(err, &le) || le.Holder == nil || le.Holder.PID != cmd.Process.Pid ||
		!strings.Contains(err.Error(), "flowcabal test-child hold") || !strings.Contains(err.Error(), strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("Open while another process holds the store: %v", err)
	}
	ro, err := Open(context.Background(), root, Options{LockWait: 300 * time.Millisecond, ReadOnlyIfLocked: true})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := ro.Stats(); err != nil || st.Chapters != 10 {
		t.Errorf("read-only copy: %+v %v", st, err)
	}
	ro.Close()
	kill(t, cmd, lines)
	s2, err := Open(context.Background(), root, Options{LockWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	if h := readLockSidecar(root); h == nil || h.PID != os.Getpid() {
		t.Errorf("sidecar after reopening = %+v", h)
	}
	s2.Close()
}

// killRounds is how many kills a crash test makes: n, or
// $FLOWCABAL_KILL_ROUNDS for a longer run.
func killRounds(n int) int {
	if v, err := strconv.Atoi(os.Getenv("FLOWCABAL_KILL_ROUNDS")); err == nil && v > 0 {
		return v
	}
	return n
}
