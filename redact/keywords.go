package redact

// keywordSet finds every occurrence of a set of keywords in a text in one
// pass: an Aho-Corasick automaton made deterministic, over the classes of
// bytes the keywords hold (a byte in no keyword is a class of its own). The
// engine's ~300 keywords make ~2,000 states of ~40 classes: built in a fraction
// of a millisecond (a table of 256 transitions a state, as the library it
// replaces kept, took ~4 ms to allocate and fill).
type keywordSet struct {
	class [256]uint16
	nc    int32
	next  []int32 // state*nc + class → the state after that byte
	n     []int32 // state → length of the keyword ending there (0: none)
	kw    []int32 // state → that keyword's index
	dict  []int32 // state → the nearest state down its suffix chain where a keyword ends (-1: none)
}

// newKeywordSet builds the automaton of words (each non-empty, distinct); a
// keyword's index is its place in words.
func newKeywordSet(words []string) *keywordSet {
	k := &keywordSet{}
	k.nc = 1 // class 0: bytes in no keyword
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if k.class[w[i]] == 0 {
				k.class[w[i]] = uint16(k.nc)
				k.nc++
			}
		}
	}
	nc := int(k.nc)
	k.newState()
	// the trie: -1 where no keyword goes on
	for wi, w := range words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			at := int(s)*nc + int(k.class[w[i]])
			if k.next[at] < 0 {
				t := k.newState() // (next grows: index it again after)
				k.next[at] = t
			}
			s = k.next[at]
		}
		k.n[s], k.kw[s] = int32(len(w)), int32(wi)
	}
	// breadth first: each state's failure (its longest proper suffix that is a
	// state), its missing transitions taken from its failure's, and its
	// dictionary link
	fail := make([]int32, len(k.n))
	queue := make([]int32, 0, len(k.n))
	for c := range nc {
		if t := k.next[c]; t < 0 {
			k.next[c] = 0
		} else {
			queue = append(queue, t) // fail[t] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := fail[s]
		if k.n[f] != 0 {
			k.dict[s] = f
		} else {
			k.dict[s] = k.dict[f]
		}
		for c := range nc {
			i := int(s)*nc + c
			if t := k.next[i]; t >= 0 {
				fail[t] = k.next[int(f)*nc+c]
				queue = append(queue, t)
			} else {
				k.next[i] = k.next[int(f)*nc+c]
			}
		}
	}
	return k
}

func (k *keywordSet) newState() int32 {
	s := int32(len(k.n))
	for range k.nc {
		k.next = append(k.next, -1)
	}
	k.n = append(k.n, 0)
	k.kw = append(k.kw, 0)
	k.dict = append(k.dict, -1)
	return s
}

// walk calls hit for every keyword occurrence in text, by its end (the index
// of its last byte), longest first where several end together.
func (k *keywordSet) walk(text []byte, hit func(end, n, kw int)) {
	if k == nil || len(k.n) == 0 {
		return
	}
	nc := int(k.nc)
	s := int32(0)
	for i, c := range text {
		s = k.next[int(s)*nc+int(k.class[c])]
		if k.n[s] != 0 {
			hit(i, int(k.n[s]), int(k.kw[s]))
		}
		for u := k.dict[s]; u >= 0; u = k.dict[u] {
			hit(i, int(k.n[u]), int(k.kw[u]))
		}
	}
}
