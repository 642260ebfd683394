package assemble

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// InputKey identifies what Assemble reads of a node and of opt, besides
// the snapshot and opt's Semantic and Refinement: two calls with equal
// keys on the same snapshot, with the same vectors and no refinement,
// give the same context. Callers that keep contexts by it must bind what
// it leaves out themselves.
func InputKey(n Node, opt Options) [32]byte {
	h := sha256.New()
	var buf [8]byte
	num := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	str := func(s string) {
		num(uint64(len(s)))
		h.Write([]byte(s))
	}
	str(n.ID)
	str(n.Text)
	num(uint64(len(n.Upstream)))
	for _, u := range n.Upstream {
		str(u)
	}
	num(uint64(n.Chapter))
	str(n.PersistTarget)
	num(uint64(n.Budget))
	num(uint64(opt.Budget))
	num(uint64(opt.ThreadWindow))
	for _, f := range []float64{opt.Shares.Meta, opt.Shares.Entities, opt.Shares.Manuscript, opt.Shares.Summaries} {
		num(math.Float64bits(f))
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
