package tokens

import (
	_ "embed"
	"math"
	"sync"
)

//go:generate go test -run TestRanksAreTheLibrarys -update-ranks

// The tokenizers' BPE ranks, from github.com/tiktoken-go/tokenizer's tables,
// laid out as the hash table ranks looks them up in (written by
// TestRanksAreTheLibrarys with -update-ranks, which otherwise checks them
// against the library): a byte of the table's size in bits, then each token in
// the order of its slot — the uvarint distance from the previous token's slot,
// its rank in 3 bytes (little-endian), a byte of length and its bytes. The
// library builds a Go map of its tables when a codec is made (~25 ms of CPU
// and ~30 MB for o200k_base's 200,000 tokens); this table is read in one pass
// over the data, its slots written in order.
var (
	//go:embed o200k_base.ranks
	o200kRanksData string
	//go:embed cl100k_base.ranks
	cl100kRanksData string
)

// ranks is a BPE vocabulary: each token's rank, looked up by its bytes in an
// open-addressing hash table (FNV-1a, linear probing) over the embedded data.
type ranks struct {
	data  string
	slots []uint32 // offset+1 in data of the token hashed to each slot (0: empty)
	mask  uint32
}

var (
	o200kRanks  = sync.OnceValue(func() *ranks { return newRanks(o200kRanksData) })
	cl100kRanks = sync.OnceValue(func() *ranks { return newRanks(cl100kRanksData) })
)

func newRanks(data string) *ranks {
	r := &ranks{data: data, slots: make([]uint32, 1<<data[0]), mask: 1<<data[0] - 1}
	slot := uint64(0)
	for i := 1; i < len(data); {
		d, n := uvarint(data[i:])
		slot += d
		i += n
		r.slots[slot] = uint32(i) + 1
		i += 4 + int(data[i+3])
	}
	return r
}

// uvarint is binary.Uvarint of a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	for i := 0; i < len(s) && i < 10; i++ {
		x |= uint64(s[i]&0x7f) << (7 * i)
		if s[i] < 0x80 {
			return x, i + 1
		}
	}
	return 0, len(s)
}

// slotBits is the size of the table for n tokens, in bits: at least twice as
// many slots as tokens.
func slotBits(n int) uint8 {
	b := uint8(1)
	for 1<<b < 2*n {
		b++
	}
	return b
}

// hashBytes is FNV-1a.
func hashBytes(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// rank is the rank of the token s; noRank when s is not a token.
func (r *ranks) rank(s string) uint32 {
	for h := hashBytes(s) & r.mask; ; h = (h + 1) & r.mask {
		v := r.slots[h]
		if v == 0 {
			return noRank
		}
		e := r.data[v-1:]
		if n := int(e[3]); n == len(s) && e[4:4+n] == s {
			return uint32(e[0]) | uint32(e[1])<<8 | uint32(e[2])<<16
		}
	}
}

const noRank = math.MaxUint32

// count is the number of tokens byte-pair encoding merges piece into: while
// two neighbouring parts make a token, the pair whose token has the lowest
// rank (the leftmost of equals) is merged into one part. Parts are a linked
// list over the piece's bytes, and the candidate pairs a heap, so a long
// piece (a line of dashes, a base64 run) costs n log n.
func (r *ranks) count(piece string) int {
	n := len(piece)
	if n <= 1 {
		return n
	}
	if r.rank(piece) != noRank {
		return 1
	}
	// next[i] is the start of the part after the one starting at i (n at the
	// end, -1 for a start merged away); prev[i] the one before
	next := make([]int32, n)
	prev := make([]int32, n)
	for i := range n {
		next[i], prev[i] = int32(i+1), int32(i-1)
	}
	pairRank := func(i int32) uint32 {
		j := next[i]
		if j >= int32(n) {
			return noRank
		}
		return r.rank(piece[i:next[j]])
	}
	var h pairHeap
	cur := make([]uint32, n) // the rank of the pair starting at i as it stands
	for i := int32(0); i < int32(n)-1; i++ {
		cur[i] = pairRank(i)
		if cur[i] != noRank {
			h = append(h, pair{cur[i], i})
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		p := h.pop()
		if next[p.at] < 0 || cur[p.at] != p.rank {
			continue // the part was merged away, or its pair changed since
		}
		j := next[p.at]
		next[p.at] = next[j]
		if next[j] < int32(n) {
			prev[next[j]] = p.at
		}
		next[j] = -1
		parts--
		for _, i := range [2]int32{prev[p.at], p.at} {
			if i < 0 {
				continue
			}
			cur[i] = pairRank(i)
			if cur[i] != noRank {
				h.push(pair{cur[i], i})
			}
		}
	}
	return parts
}

// pair is a merge candidate: the rank of the token two neighbouring parts
// make, and where the first starts.
type pair struct {
	rank uint32
	at   int32
}

// pairHeap is a min-heap of pairs by rank, then position.
type pairHeap []pair

func (h pairHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].at < h[b].at
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
