// Package store is the embedded project store of FlowCabal: one bbolt
// database, .flowcabal/project.db under the project root, that holds
// everything derived from the author's files and everything the runner
// and the agents remember. The author's files stay the truth for the
// knowledge; the database can always be rebuilt from them except for the
// history (curated versions, node outputs, runs, the agent log), which
// export writes as JSON.
//
// # Opening
//
// A database has one writer. [Open] waits a bounded time for bbolt's file
// lock ([Options.LockWait]); when another process holds it, Open returns
// a [*LockedError] naming that process (read from the sidecar
// .flowcabal/lock.json, which the holder writes while it has the store
// open), or, with [Options.ReadOnlyIfLocked], opens a consistent copy of
// the database read-only. Nothing here is global: two Stores on two
// projects live side by side in one process.
//
// # Use
//
// A long-lived process (the language server) opens the store once, runs
// [Store.Work] in the background to produce summaries, calls
// [Store.Index] at start and [Store.Reindex] with the files its
// file-change notifications name, [Store.LoadSearch] in the background to
// have the first query fast, and [Store.FlushSearch] when idle; it
// cancels Work before [Store.Close]. Curation is [Store.Persist]; the
// runner records outputs ([Store.RecordOutput]), freezes
// ([Store.Freeze]), checkpoints ([Store.SaveCheckpoint]) and logs
// ([Store.AppendLog]); Role A reads with [Store.Resources],
// [Store.Level], [Store.Search], [Store.SearchPassages], [Store.Mentions],
// [Store.Relations], [Store.Arcs] and [Store.Nearest].
//
// # Bucket layout
//
// Every key is a printable string and every value is a JSON document,
// except in the search, rolea and stat buckets (derived, not exported),
// so that export can write the lot as JSON.
// "\x00" separates the parts of composite keys; sequence numbers are
// zero-padded decimal so that byte order is numeric order.
//
//	meta          "schema" → schema version
//	resources     resource path → Resource (file, kind, content hash, chapter,
//	              names, front matter diagnostic, hash of the levels it has)
//	byhash        content hash "\x00" resource path → {} (who has this content)
//	levels        content hash → Levels (L0, L1, extractive or model)
//	queue         content hash → Job (durable summary work, one per content)
//	arcs          arc number (%06d) → Arc (chapter span, source, hash)
//	relations     from "\x00" kind "\x00" to "\x00" source → {}
//	relations-to  to "\x00" kind "\x00" from "\x00" source → {} (the reverse)
//	search        the BM25 index as a base and a delta (textsearch's
//	              stored form): "gen" → the base's name, "b/" gen "/d" →
//	              its documents table, "b/" gen "/t/" term → a block of
//	              postings from that term on, "delta" → the documents
//	              removed and added since the base; "docs" → resource
//	              path → content hash it was built from
//	curated       target path → Curated (current hash, tags, version count,
//	              check results, whether the file write finished)
//	versions      target path "\x00" %012d → Version (content of each
//	              curated version, oldest first)
//	outputs       workflow "\x00" node "\x00" %012d → Output
//	nodes         workflow "\x00" node → NodeState (current and frozen version)
//	runs          run id → Checkpoint
//	agentlog      %016d sequence → LogEntry
//	embeddings    model "\x00" resource path → Embedding (since schema 2);
//	              "\x00text\x00" model "\x00" content hash → text vector
//	              (passages, prompts: by content, base64 float32s)
//	              "\x00answer\x00" input hash → a model's cached JSON answer
//	              (Role A's intent refinement)
//	tasks         kind "\x00" key → Task (durable work of other packages,
//	              since schema 3)
//	rolea         Role A's kept indexes (agent/assemble; since schema 4):
//	              "t/" content hash → a chapter's passages and summary
//	              (or an arc's summary); the chapter (c) and passage (p)
//	              indexes each as a base, "b/" gen "/" c|p "/d" and
//	              "/t/" term, and a delta "x/delta/" c|p (arcs are
//	              searched from the chapter index; kept format 5);
//	              "x/manifest" → the base's name and the chapter
//	              versions they hold
//	stat          file → its stat signature when last read (size, times,
//	              inode; since schema 5): [Store.Index] reads again only
//	              files whose signature changed (see statSig)
//
// # Invariants
//
//   - A resource's Hash is the SHA-256 of its file as last indexed
//     ("oversize:…" for a file too large to read); a Levels record found
//     under that hash is current, one found under an older hash
//     (LevelHash) is served only marked Stale.
//   - Every content a resource or an arc holds has its Levels or exactly
//     one job in the queue (keyed by the content hash, so equal contents
//     share it); a job whose content nothing holds any more is dropped
//     when it is picked, not run.
//   - One file per resource path: of "x.md" and "x/content.md" the first
//     in byte order is indexed, the other reported.
//   - relations and relations-to hold the same edges.
//   - A curated record whose Written flag is false names a version whose
//     content is already in versions: the file write is redone on Open.
//   - No value contains a secret: the API keys named by flowcabal.toml
//     (and Options.Secrets) are replaced by "[redacted]" before anything
//     free-form (outputs, checkpoints, log entries, curated text) is
//     written.
package store
