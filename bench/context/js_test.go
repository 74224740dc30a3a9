package main

import (
	"strconv"
	"strings"
	"testing"
)

// The functions a JavaScript project is broken at are found whole, with the
// brackets in strings, comments and regular expressions not counted, and the
// break keeps every line where it was.
func TestJSFuncs(t *testing.T) {
	src := `'use strict';
var re = /[{(]/g; // a { in a comment
function one(a) {
    var s = '}' + "{";
    return a;
}
var two = function two(b) {
    if (b) { return /}/.test(b); }
    return b;
};
module.exports = {
    three: function (c) {
        /* } */
        return c;
    },
    short: function () { return 1; }
};
`
	ts := jsFuncs("lib/x.js", []byte(src))
	var got []string
	for _, x := range ts {
		got = append(got, x.name+":"+strconv.Itoa(x.from)+"-"+strconv.Itoa(x.to))
	}
	if want := "one:3-6 two:7-10 three:12-15"; strings.Join(got, " ") != want {
		t.Fatalf("functions %q, want %q", strings.Join(got, " "), want)
	}
	broken := string(jsBreak([]byte(src), ts[1]))
	if strings.Count(broken, "\n") != strings.Count(src, "\n") || !strings.Contains(broken, "var two = function two(b) { if (true) { return undefined; }\n") {
		t.Fatalf("break moved lines or missed the body:\n%s", broken)
	}
}
