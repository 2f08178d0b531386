package i18n

import (
	"encoding/json"
	"testing"
)

// msgsJSONCases are messages of every shape Value stores, the written
// fast and the escaped alike.
var msgsJSONCases = []Msgs{
	{{Text: "17399.00"}},
	{{Text: "17399.00"}, M("prices.sale_change", map[string]any{"Sale": "15999.00"})},
	{{Key: "mass.rejected_code", Args: map[string]any{"Code": "400", "B": "x", "A": "Цена"}, Label: "field.price"}},
	{{Status: "active"}, {Text: "Цена ниже минимальной", Verbatim: true}},
	{{Text: `say "no" \ here`}},
	{{Text: "<b>&amp;</b>"}},
	{{Text: "line\nbreak\ttab\x01"}},
	{{Text: "sep\u2028para\u2029"}},
	{{Text: "bad \xff utf8"}},
	{{Key: "k", Args: map[string]any{"Count": 3}}},
	{{Key: "k", Args: map[string]any{"Inner": M("x", nil), "List": Msgs{{Text: "a"}}}}},
	{{Key: "k", Args: map[string]any{}}},
	{{}},
	{{Verbatim: true}},
	{{Key: "k", Args: map[string]any{"a\"b": "c"}}},
}

// TestValueAsJSONMarshal holds the written encoding to encoding/json's,
// byte for byte, for every case the fast path takes and every one it
// leaves.
func TestValueAsJSONMarshal(t *testing.T) {
	for _, ms := range msgsJSONCases {
		want, err := json.Marshal(ms)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ms.Value()
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("Value(%#v) = %s, json.Marshal %s", ms, got, want)
		}
		if b, ok := appendMsgs(nil, ms); ok && string(b) != string(want) {
			t.Errorf("appendMsgs(%#v) = %s, json.Marshal %s", ms, b, want)
		}
	}
	fast := 0
	for _, ms := range msgsJSONCases {
		if _, ok := appendMsgs(nil, ms); ok {
			fast++
		}
	}
	if fast < 5 || fast == len(msgsJSONCases) {
		t.Errorf("%d of %d cases written without encoding/json: the test covers neither path", fast, len(msgsJSONCases))
	}
}

// FuzzValueAsJSONMarshal: any text in any field, and as an argument,
// stores as encoding/json writes it.
func FuzzValueAsJSONMarshal(f *testing.F) {
	f.Add("mass.x", "Цена", "17399.00", "field", "Sale", false)
	f.Add("", "<&>", "a\"b\\c", "", "\u2028", true)
	f.Fuzz(func(t *testing.T, key, text, arg, label, argName string, verbatim bool) {
		ms := Msgs{{Key: key, Text: text, Label: label, Status: arg, Verbatim: verbatim}, M(key, map[string]any{argName: arg, "Z": text})}
		want, err := json.Marshal(ms)
		if err != nil {
			t.Skip()
		}
		if got, err := ms.Value(); err != nil || got != string(want) {
			t.Fatalf("Value = %v, %v; json.Marshal %s", got, err, want)
		}
	})
}

func BenchmarkMsgsValue(b *testing.B) {
	ms := Msgs{{Text: "17399.00"}, M("prices.sale_change", map[string]any{"Sale": "15999.00"})}
	for b.Loop() {
		if _, err := ms.Value(); err != nil {
			b.Fatal(err)
		}
	}
}
