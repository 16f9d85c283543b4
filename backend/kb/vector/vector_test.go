package vector

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestDotOfUnitVectorsIsCosine(t *testing.T) {
	// Lengths 5 and 7 exercise the 4-wide loop and its tail.
	a := Normalize([]float32{1, 2, 0, 0, 3})
	b := Normalize([]float32{1, 2, 0, 0, 3})
	if got := Dot(a, b); !near(float64(got), 1) {
		t.Errorf("Dot of a unit vector with itself = %v, want 1", got)
	}
	x := []float32{1, 0, 0, 0, 0, 0, 0}
	y := []float32{0, 0, 0, 0, 0, 0, 1}
	if got := Dot(x, y); got != 0 {
		t.Errorf("Dot of orthogonal vectors = %v, want 0", got)
	}
	if got := Dot([]float32{1, 2, 3}, []float32{4, 5, 6}); got != 32 {
		t.Errorf("Dot = %v, want 32", got)
	}
}

func TestNormalizeKeepsZeroAndScalesToUnitLength(t *testing.T) {
	if got := Normalize([]float32{0, 0}); got[0] != 0 || got[1] != 0 {
		t.Errorf("zero vector became %v", got)
	}
	v := Normalize([]float32{3, 4})
	if !near(float64(v[0]), 0.6) || !near(float64(v[1]), 0.8) {
		t.Errorf("Normalize(3,4) = %v, want (0.6, 0.8)", v)
	}
}

func TestMeanIsUnitLengthAndSkipsOtherDimensions(t *testing.T) {
	if Mean(nil) != nil {
		t.Error("Mean of nothing is not nil")
	}
	m := Mean([][]float32{{1, 0}, {0, 1}, {5, 5, 5}})
	if !near(float64(m[0]), 1/math.Sqrt2) || !near(float64(m[1]), 1/math.Sqrt2) {
		t.Errorf("Mean = %v, want the unit diagonal", m)
	}
}

func TestRRFRewardsAgreementBetweenRankings(t *testing.T) {
	if RRF(0) != 0 || RRF(-1) != 0 {
		t.Error("an unranked item scores")
	}
	both := RRF(2) + RRF(2) // second in two lists
	one := RRF(1) + RRF(0)  // first in one list only
	if !(both > one) || !near(RRF(1), 1.0/61) {
		t.Errorf("RRF: second in both %v, first in one %v", both, one)
	}
}
