package store

import (
	"encoding/binary"
	"fmt"
	"math"
)

// EncodeEmbedding packs a vector as little-endian float32 (4 bytes a
// dimension), the storage format of every embedding column (DESIGN.md §3).
func EncodeEmbedding(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// DecodeEmbedding unpacks a little-endian float32 BLOB. It fails when the
// length is not a multiple of 4.
func DecodeEmbedding(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("embedding blob of %d bytes is not float32 data", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
