package main

import (
	"fmt"
	"io"
	"os"
)

// Limits on what route and eval read: far above any real message or
// labelled set, far below what would exhaust memory.
const (
	maxRouteLine = 1 << 20
	maxEvalBytes = 64 << 20
)

// readInput reads a whole input file of at most limit bytes, saying
// clearly what is wrong with it otherwise (missing, a directory, too big).
func readInput(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, limit>>20)
	}
	return data, nil
}
