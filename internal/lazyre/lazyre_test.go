package lazyre

import "testing"

func TestCompiledOnFirstUseOnly(t *testing.T) {
	l := New(`a(b+)c`)
	if l.re != nil {
		t.Fatal("compiled before its first use")
	}
	if m := l.FindStringSubmatch("xabbc"); len(m) != 2 || m[1] != "bb" {
		t.Fatalf("match = %q", m)
	}
	found := false
	for _, r := range All() {
		found = found || r == l
	}
	if !found {
		t.Fatal("New did not register the pattern")
	}
}

func TestBadPatternPanicsOnFirstUse(t *testing.T) {
	l := New(`a(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern compiled")
		}
	}()
	l.MatchString("a")
}
