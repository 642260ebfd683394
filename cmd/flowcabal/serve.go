package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"

	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/workbench"
)

// runServe runs the language server on stdio, or on a loopback TCP port
// with --listen. Only protocol goes to stdout; logs go to stderr.
func runServe(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	listen := fs.String("listen", "", "serve on this TCP address (loopback only, e.g. 127.0.0.1:7777) instead of stdio")
	allowRemote := fs.Bool("allow-remote", false, "allow --listen on a non-loopback address (the protocol has no authentication)")
	level := fs.String("log-level", "info", "log level on stderr: debug, info, warn, error")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file when the server exits (for go tool pprof)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole session to this file (for go tool pprof)")
	memLimit := fs.Int("memory-limit", defaultMemoryLimitMiB, "soft limit of the Go heap in MiB, raised with the live heap for large works (0: none; the GOMEMLIMIT environment variable wins)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}

	if env.getenv("GOMEMLIMIT") == "" && *memLimit > 0 {
		defer limitMemory(int64(*memLimit) << 20)()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal serve: cpuprofile: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal serve: cpuprofile: %v\n", err)
			return exitFailure
		}
		defer pprof.StopCPUProfile()
	}
	if *memprofile != "" {
		runtime.MemProfileRate = 4096 // fine grained: the profile is for finding where memory goes
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal serve: bad --log-level %q\n", *level)
		return exitUsage
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: lv}))
	// serve runs one session with its own workbench (runs, decisions, run
	// state lenses, Role A's hover section); the workbench's runs are
	// cancelled, their checkpoints saved, when the session ends.
	serve := func(rwc io.ReadWriteCloser) error {
		wb := workbench.New(log, env.getenv)
		defer wb.Close()
		err := server.Serve(ctx, rwc, server.Options{Logger: log, Version: version,
			Commands: wb, Lenses: wb.Lenses, RunEstimate: wb.RunEstimate, ContextSection: wb.ContextSection, Opened: wb.Opened, Prose: wb.Prose(),
			Completions: wb.Completions, CodeActions: wb.CodeActions, ResolveCodeAction: wb.ResolveCodeAction, TextHover: wb.TextHover, FilesChanged: wb.FilesChanged,
			Diagnostics: wb.Diagnostics, LevelTokens: wb.LevelTokens, NodeContexts: wb.NodeContexts})
		if *memprofile != "" {
			// Before the workbench closes: the profile shows what a
			// session holds.
			writeHeapProfile(*memprofile, env.stderr)
		}
		return err
	}

	if *listen == "" {
		if f, ok := env.stdout.(*os.File); ok {
			growStdoutPipe(f)
		}
		err := serve(stdio{env.stdin, env.stdout})
		if err != nil {
			log.Info("session ended", "err", err)
			return exitFindings // LSP: exit code 1 when exit came without shutdown
		}
		return exitOK
	}
	if err := checkLoopback(*listen, *allowRemote); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal serve: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal serve: %v\n", err)
		return exitFailure
	}
	log.Info("listening", "addr", ln.Addr().String())
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return exitOK
			}
			fmt.Fprintf(env.stderr, "flowcabal serve: %v\n", err)
			return exitFailure
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := serve(c)
			log.Info("session ended", "remote", c.RemoteAddr().String(), "err", err)
		}()
	}
}

// writeHeapProfile writes the live heap after a collection, so the
// profile shows what the server holds rather than its garbage.
func writeHeapProfile(file string, stderr io.Writer) {
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(stderr, "flowcabal serve: memprofile: %v\n", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintf(stderr, "flowcabal serve: memprofile: %v\n", err)
	}
}

// checkLoopback refuses addresses that are not on the loopback interface
// unless allowed: anyone who can connect can edit the workspace.
func checkLoopback(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("bad --listen address %q: %w", addr, err)
	}
	if allowRemote {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--listen %s is not a loopback address; use 127.0.0.1 or ::1 (or --allow-remote, which exposes the workspace without authentication)", addr)
	}
	return nil
}

// stdio joins the process's standard input and output into the stream
// the server speaks on.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

// writeEach writes bufs to w in order.
func writeEach(w io.Writer, bufs [][]byte) (int64, error) {
	var total int64
	for _, b := range bufs {
		n, err := w.Write(b)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Close closes stdin (which ends the read) when it can be closed.
func (s stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
