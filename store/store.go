package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowcabal/flowcabal/project"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout this package reads and writes. Open
// migrates older databases forward and refuses newer ones.
const SchemaVersion = 5

// LockFile is the sidecar, relative to the project root, in which the
// process holding the store writes who it is.
const LockFile = project.DataDir + "/lock.json"

// DefaultLockWait bounds how long Open waits for another process to
// release the database.
const DefaultLockWait = 2 * time.Second

// ErrReadOnly is returned by writes on a store opened read-only.
var ErrReadOnly = errors.New("project store is open read-only")

// ErrNotFound is returned by lookups of something the store does not hold.
var ErrNotFound = errors.New("not found in the project store")

// Options tune Open. The zero value opens read-write, waits
// DefaultLockWait for the lock and summarises extractively.
type Options struct {
	// LockWait bounds the wait for another process's lock; 0 means
	// DefaultLockWait.
	LockWait time.Duration
	// ReadOnly opens the database for reading only.
	ReadOnly bool
	// ReadOnlyIfLocked opens a read-only copy of the database when
	// another process holds it, instead of failing.
	ReadOnlyIfLocked bool
	// Summarizer produces L0/L1 levels; nil means the extractive one.
	Summarizer Summarizer
	// Concurrency caps the summary jobs run at once; 0 means 2.
	Concurrency int
	// Secrets are values that must never be written (API keys). The keys
	// named by the project's flowcabal.toml (api_key_env) are added.
	Secrets []string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Tasks are the handlers of queued tasks by kind (see Enqueue); tasks
	// of other kinds stay queued for a process that has a handler.
	Tasks map[string]TaskHandler
	// TaskRetry is how long a failed task waits before it is tried again,
	// doubled after each failure; 0 means DefaultTaskRetry, a negative
	// value retries at the next pass.
	TaskRetry time.Duration
	// Logger receives the store's logs; nil discards them.
	Logger *slog.Logger
	// Command describes this process in the lock sidecar; empty means
	// the process's command line.
	Command string

	// migrations replaces the built-in list, for tests.
	migrations []migration
	// jobDone is told of each summary job committed, for tests.
	jobDone func(Job)
}

// Store is an open project store. Its methods are safe for concurrent
// use.
type Store struct {
	root     string
	dbPath   string
	db       *bolt.DB
	readOnly bool
	snapshot string // temporary copy opened read-only, removed on Close
	opts     Options
	log      *slog.Logger
	redact   *strings.Replacer
	arcSpan  int

	// indexMu serialises indexing so that two notifications for one file
	// do not race between reading it and committing it.
	indexMu sync.Mutex
	// walked are the files the last whole index found (Walked).
	walked []string

	search searchState

	wake chan struct{}

	extractOnce sync.Once
	extract     *Extractive

	// gen counts the index commits of this process (see Generation).
	gen atomic.Uint64

	// reads counts the knowledge files indexing read (the stat
	// signatures' tests); clock, when set, stands for time.Now in judging
	// whether a file's times are too recent to trust (tests).
	reads atomic.Int64
	clock func() time.Time

	closeOnce sync.Once
	closeErr  error
}

// LockHolder is what the sidecar lock.json says about the process that
// has the store open.
type LockHolder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Host    string    `json:"host,omitempty"`
	Since   time.Time `json:"since"`
}

// LockedError reports a store held by another process.
type LockedError struct {
	Path   string
	Waited time.Duration
	// Holder is nil when the sidecar could not be read.
	Holder *LockHolder
}

// Error names the holding process when the sidecar says who it is.
func (e *LockedError) Error() string {
	if e.Holder == nil {
		return fmt.Sprintf("project store %s is in use by another process (waited %s)", e.Path, e.Waited)
	}
	return fmt.Sprintf("project store %s is in use by process %d (%s) since %s (waited %s); close it or open read-only",
		e.Path, e.Holder.PID, e.Holder.Command, e.Holder.Since.Format(time.RFC3339), e.Waited)
}

// Open opens (creating if needed) the store of the project at root.
func Open(ctx context.Context, root string, opts Options) (*Store, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open project store: %w", err)
	}
	if opts.LockWait <= 0 {
		opts.LockWait = DefaultLockWait
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	environ := func() []string { return nil }
	if opts.Getenv == nil {
		opts.Getenv, environ = os.Getenv, os.Environ
	}
	s := &Store{
		root:   abs,
		dbPath: filepath.Join(abs, filepath.FromSlash(project.DBFile)),
		opts:   opts,
		log:    opts.Logger,
		wake:   make(chan struct{}, 1),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	cfg, err := project.LoadConfig(abs)
	if err != nil {
		// A typo in flowcabal.toml must not take the index away; the
		// server reports the file's error itself.
		s.log.Warn("project configuration unreadable; using defaults", "err", err)
		cfg = &project.Config{}
	}
	s.arcSpan = cfg.ArcSpan
	if s.arcSpan <= 0 {
		s.arcSpan = DefaultArcSpan
	}
	s.redact = secretReplacer(cfg, opts, environ())

	if err := os.MkdirAll(filepath.Dir(s.dbPath), 0o755); err != nil && !opts.ReadOnly {
		return nil, fmt.Errorf("open project store: %w", err)
	}
	if err := s.openDB(ctx); err != nil {
		return nil, err
	}
	if err := s.migrate(); err != nil {
		s.db.Close()
		s.cleanupSnapshot()
		return nil, err
	}
	if !s.readOnly {
		s.writeLockSidecar()
		if err := s.recoverCurations(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Store) openDB(ctx context.Context) error {
	bo := &bolt.Options{Timeout: s.opts.LockWait, ReadOnly: s.opts.ReadOnly, FreelistType: bolt.FreelistMapType}
	if s.opts.ReadOnly {
		if _, err := os.Stat(s.dbPath); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("open project store read-only: %s does not exist (run flowcabal index first)", s.dbPath)
		}
	}
	start := time.Now()
	db, err := bolt.Open(s.dbPath, 0o600, bo)
	if err == nil {
		// Concurrent writers (parallel nodes recording their outputs) share
		// one commit; a lone writer waits at most this long for company.
		db.MaxBatchDelay = time.Millisecond
		// The file grows by this much past its data (bbolt's default is
		// 16 MiB): a whole book's store is tens of MiB, and the slack
		// counted against it.
		db.AllocSize = 4 << 20
		s.db = db
		s.readOnly = s.opts.ReadOnly
		return nil
	}
	if !errors.Is(err, berrors.ErrTimeout) {
		return fmt.Errorf("open project store %s: %w", s.dbPath, err)
	}
	locked := &LockedError{Path: s.dbPath, Waited: time.Since(start).Round(time.Millisecond), Holder: readLockSidecar(s.root)}
	if !s.opts.ReadOnlyIfLocked {
		return locked
	}
	// bbolt's read-only mode takes a shared lock, which the writer's
	// exclusive lock refuses; a copy of the file is the way to read while
	// another process writes. bbolt never overwrites the pages of the last
	// committed transaction, and it validates both meta pages, so the
	// copy opens at a committed state; Check guards against a copy taken
	// while freed pages were being reused.
	for attempt := 0; attempt < 3; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		snap, err := copyToTemp(s.dbPath)
		if err != nil {
			return fmt.Errorf("%v; and copying it for reading failed: %w", locked, err)
		}
		db, err := bolt.Open(snap, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
		if err == nil {
			if cerr := db.View(func(tx *bolt.Tx) error {
				for e := range tx.Check() {
					return e
				}
				return nil
			}); cerr == nil {
				s.db, s.readOnly, s.snapshot = db, true, snap
				s.log.Info("project store is locked; reading a copy", "holder", locked.Error())
				return nil
			}
			db.Close()
		}
		os.Remove(snap)
	}
	return fmt.Errorf("%v; and no consistent copy could be read", locked)
}

func copyToTemp(src string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp("", "flowcabal-snapshot-*.db")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(out.Name())
		return "", err
	}
	if err := out.Close(); err != nil {
		os.Remove(out.Name())
		return "", err
	}
	return out.Name(), nil
}

func (s *Store) writeLockSidecar() {
	h := LockHolder{PID: os.Getpid(), Command: s.opts.Command, Since: time.Now().UTC()}
	if h.Command == "" {
		h.Command = strings.Join(os.Args, " ")
		if len(h.Command) > 200 {
			h.Command = h.Command[:200] + "…"
		}
	}
	h.Command = s.clean(h.Command) // a key passed on a command line stays out
	h.Host, _ = os.Hostname()
	data, _ := json.Marshal(h)
	p := filepath.Join(s.root, filepath.FromSlash(LockFile))
	// The sidecar is advice for error messages; failing to write it must
	// not stop the store from working.
	if err := writeFileAtomic(p, data, 0o644); err != nil {
		s.log.Warn("could not write lock sidecar", "path", p, "err", err)
	}
}

func readLockSidecar(root string) *LockHolder {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(LockFile)))
	if err != nil {
		return nil
	}
	var h LockHolder
	if json.Unmarshal(data, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// Generation is a number that changes whenever this process commits a
// change to the indexed knowledge (indexing, curation, import), so that a
// cache of derived views (the server's snapshot) knows when to refresh.
func (s *Store) Generation() uint64 { return s.gen.Load() }

// Root returns the project root the store belongs to.
func (s *Store) Root() string { return s.root }

// ReadOnly reports whether writes are refused.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Snapshot reports whether the store reads a copy because another
// process holds the database.
func (s *Store) Snapshot() bool { return s.snapshot != "" }

// Close releases the database and the lock sidecar.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if !s.readOnly {
			if err := s.flushSearch(); err != nil {
				s.log.Warn("could not save the search index", "err", err)
			}
			p := filepath.Join(s.root, filepath.FromSlash(LockFile))
			if h := readLockSidecar(s.root); h != nil && h.PID == os.Getpid() {
				os.Remove(p)
			}
		}
		s.closeErr = s.db.Close()
		s.cleanupSnapshot()
	})
	return s.closeErr
}

func (s *Store) cleanupSnapshot() {
	if s.snapshot != "" {
		os.Remove(s.snapshot)
	}
}

func (s *Store) update(fn func(tx *bolt.Tx) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.db.Update(fn)
}

func (s *Store) view(fn func(tx *bolt.Tx) error) error { return s.db.View(fn) }

// batch is update for writes that many goroutines make at once: bbolt
// coalesces them into one commit (and one sync). fn may run more than
// once, so it must only depend on what it reads in tx.
func (s *Store) batch(fn func(tx *bolt.Tx) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.db.Batch(fn)
}

// Bucket names.
var (
	bMeta        = []byte("meta")
	bResources   = []byte("resources")
	bByHash      = []byte("byhash")
	bLevels      = []byte("levels")
	bQueue       = []byte("queue")
	bArcs        = []byte("arcs")
	bRelations   = []byte("relations")
	bRelationsTo = []byte("relations-to")
	bSearch      = []byte("search")
	bCurated     = []byte("curated")
	bVersions    = []byte("versions")
	bOutputs     = []byte("outputs")
	bNodes       = []byte("nodes")
	bRuns        = []byte("runs")
	bAgentLog    = []byte("agentlog")
	bEmbeddings  = []byte("embeddings") // since schema 2
	bTasks       = []byte("tasks")      // since schema 3
	bRoleA       = []byte("rolea")      // since schema 4
	bStat        = []byte("stat")       // since schema 5
)

func allBuckets() [][]byte {
	return [][]byte{bMeta, bResources, bByHash, bLevels, bQueue, bArcs, bRelations, bRelationsTo,
		bSearch, bCurated, bVersions, bOutputs, bNodes, bRuns, bAgentLog, bEmbeddings, bTasks, bRoleA, bStat}
}

// A migration moves the database from version to-1 to version to, inside
// the transaction that also records the new version.
type migration struct {
	to    int
	name  string
	apply func(tx *bolt.Tx) error
}

func builtinMigrations() []migration {
	return []migration{
		{to: 1, name: "create the buckets", apply: func(tx *bolt.Tx) error {
			for _, b := range allBuckets() {
				if bytes.Equal(b, bEmbeddings) || bytes.Equal(b, bTasks) || bytes.Equal(b, bRoleA) || bytes.Equal(b, bStat) {
					continue // later versions
				}
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return nil
		}},
		{to: 2, name: "add embeddings", apply: func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(bEmbeddings)
			return err
		}},
		{to: 3, name: "add tasks", apply: func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(bTasks)
			return err
		}},
		{to: 4, name: "add Role A's indexes", apply: func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(bRoleA)
			return err
		}},
		{to: 5, name: "add the files' stat signatures", apply: func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(bStat)
			return err
		}},
	}
}

var keySchema = []byte("schema")

// schemaOf reads the version; a database without a meta bucket is 0.
func schemaOf(tx *bolt.Tx) (int, error) {
	b := tx.Bucket(bMeta)
	if b == nil {
		return 0, nil
	}
	v := b.Get(keySchema)
	if v == nil {
		return 0, nil
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil {
		return 0, fmt.Errorf("schema version %q: %w", v, err)
	}
	return n, nil
}

func (s *Store) migrate() error {
	migs := s.opts.migrations
	if migs == nil {
		migs = builtinMigrations()
	}
	latest := 0
	for _, m := range migs {
		latest = max(latest, m.to)
	}
	var have int
	if err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		have, err = schemaOf(tx)
		return err
	}); err != nil {
		return fmt.Errorf("open project store %s: %w", s.dbPath, err)
	}
	if have > latest {
		return fmt.Errorf("project store %s has schema version %d, newer than the %d this flowcabal knows: upgrade flowcabal", s.dbPath, have, latest)
	}
	if have == latest {
		return nil
	}
	if s.readOnly {
		return fmt.Errorf("project store %s has schema version %d and needs migrating to %d: open it read-write once", s.dbPath, have, latest)
	}
	// All steps in one transaction: a crash leaves the old version whole.
	return s.db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		for _, m := range migs {
			if m.to <= have {
				continue
			}
			if err := m.apply(tx); err != nil {
				return fmt.Errorf("migrate project store to version %d (%s): %w", m.to, m.name, err)
			}
			s.log.Info("migrated project store", "to", m.to, "step", m.name)
		}
		v, _ := json.Marshal(latest)
		return meta.Put(keySchema, v)
	})
}

// Schema returns the database's schema version.
func (s *Store) Schema() (int, error) {
	var n int
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		n, err = schemaOf(tx)
		return err
	})
	return n, err
}

func putJSON(b *bolt.Bucket, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s/%q: %w", b, key, err)
	}
	return b.Put([]byte(key), data)
}

// getJSON decodes the value at key into v and reports whether it exists.
func getJSON(b *bolt.Bucket, key string, v any) (bool, error) {
	data := b.Get([]byte(key))
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("decode %q: %w", key, err)
	}
	return true, nil
}

// joinKey builds a composite key.
func joinKey(parts ...string) string { return strings.Join(parts, "\x00") }

func seqKey(n uint64) string { return fmt.Sprintf("%012d", n) }

// secretReplacer replaces every known secret with "[redacted]": the
// values of Options.Secrets, of the variables flowcabal.toml names as
// holding keys and of the editor's key variable, and of any variable in environ whose name says it holds
// one (…API_KEY…, …_TOKEN, …_SECRET…), so that a key reaches no record
// even when the configuration could not be read.
func secretReplacer(cfg *project.Config, opts Options, environ []string) *strings.Replacer {
	var secrets []string
	add := func(v string) {
		// Very short values would redact ordinary words; real keys are long.
		if len(v) >= 8 && !slices.Contains(secrets, v) {
			secrets = append(secrets, v)
		}
	}
	for _, v := range opts.Secrets {
		add(v)
	}
	for _, m := range cfg.Models {
		if m.APIKeyEnv != "" {
			add(opts.Getenv(m.APIKeyEnv))
		}
	}
	// The editor's key is the fallback of every model (llm.EditorKeyEnv):
	// a process given its own Getenv reads no environ, so name it here.
	add(opts.Getenv(project.EditorKeyEnv))
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		up := strings.ToUpper(name)
		if strings.Contains(up, "API_KEY") || strings.Contains(up, "APIKEY") || strings.HasSuffix(up, "_TOKEN") || strings.Contains(up, "SECRET") {
			add(v)
		}
	}
	// Longer first: the replacer tries the pairs in order.
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, v := range secrets {
		pairs = append(pairs, v, "[redacted]")
	}
	return strings.NewReplacer(pairs...)
}

// Redact returns text with the secrets the store never writes (API
// keys) replaced, as the store would record it: a runner hands an
// output to dependent nodes before its record is committed, and they
// must see the text the history will hold.
func (s *Store) Redact(text string) string { return s.clean(text) }

// clean removes secrets from free-form text before it is stored.
func (s *Store) clean(text string) string {
	if text == "" {
		return text
	}
	return s.redact.Replace(text)
}

// writeFileAtomic writes data to p through a temporary file in the same
// folder, synced and renamed over p, then syncs the folder so that the
// rename itself survives a crash.
func writeFileAtomic(p string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		return err
	}
	ok = true
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
