package jatext

import (
	"reflect"
	"testing"
)

// 吾輩 is a pronoun in the IPA dictionary, 速い an adjective, は・です particles and auxiliaries.
func TestNounsKeepsNounsAndLatinWordsOnly(t *testing.T) {
	got, err := Nouns("吾輩は猫である。名前はまだ無い。Go and Rust は速い言語です")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"猫", "名前", "go", "rust", "言語"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Nouns = %q, want %q", got, want)
	}
}
