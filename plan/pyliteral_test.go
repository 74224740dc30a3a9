package plan

import (
	"encoding/json"
	"testing"
)

// pythonToJSON converts tokens, never text inside strings: every case is the
// Python literal and the JSON value it stands for.
func TestPythonToJSON(t *testing.T) {
	tests := []struct{ py, want string }{
		{`{'a': True, 'b': False, 'c': None}`, `{"a":true,"b":false,"c":null}`},
		{`{'a': 'True or None, False'}`, `{"a":"True or None, False"}`},
		{`{"a": "don't"}`, `{"a":"don't"}`},
		{`{'a': 'say "hi"'}`, `{"a":"say \"hi\""}`},
		{`{'a': 'it\'s'}`, `{"a":"it's"}`},
		{`{'a': "\"q\""}`, `{"a":"\"q\""}`},
		{`{'a': 'x\ny\tz\\w'}`, `{"a":"x\ny\tz\\w"}`},
		{`{'a': '\x41\101\u00e9\U0001F600'}`, `{"a":"AAé😀"}`},
		{`{'a': '\d\/'}`, `{"a":"\\d\\/"}`},
		{`{'a': '\v\a\0'}`, `{"a":"\u000b\u0007\u0000"}`},
		{"{'a': 'one \\\ntwo'}", `{"a":"one two"}`},
		{`{'a': r'\d+\'', 'b': R"\\"}`, `{"a":"\\d+\\'","b":"\\\\"}`},
		{`{'a': u'x'}`, `{"a":"x"}`},
		{"{'a': '''line 1\nit's \"2\"'''}", `{"a":"line 1\nit's \"2\""}`},
		{`{'a': "", 'b': ''}`, `{"a":"","b":""}`},
		{"{'a': 1,  # a 'comment' with \"quotes\" and True\n 'b': 2}", `{"a":1,"b":2}`},
		{`{'a': '# not a comment'}`, `{"a":"# not a comment"}`},
		{`{'n': 1e5, 'm': -2.5, 'k': [1, 2]}`, `{"n":1e5,"m":-2.5,"k":[1,2]}`},
		{`{'a': '\ud83d\ude00'}`, `{"a":"😀"}`},
	}
	for _, tc := range tests {
		got, ok := pythonToJSON([]byte(tc.py))
		if !ok {
			t.Errorf("%s: not converted", tc.py)
			continue
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Errorf("%s → %s: %v", tc.py, got, err)
			continue
		}
		json.Unmarshal([]byte(tc.want), &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("%s → %s, want %s", tc.py, gb, wb)
		}
	}
	// Words that are not keywords are copied, so the result stays invalid.
	for _, py := range []string{`{'a': Trueish}`, `{'a': true_}`, `{'a': NoneType}`} {
		if got, ok := pythonToJSON([]byte(py)); ok && json.Valid(got) {
			t.Errorf("%s → valid %s", py, got)
		}
	}
	// Strings that do not end, or hold a malformed escape, are refused.
	for _, py := range []string{`{'a': 'open}`, `{'a': '''open'}`, `{'a': '\xZZ'}`, `{'a': '\u12'}`, `{'a': 'x\`} {
		if _, ok := pythonToJSON([]byte(py)); ok {
			t.Errorf("%s converted", py)
		}
	}
}
