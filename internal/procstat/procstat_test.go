package procstat

import (
	"os"
	"runtime"
	"testing"
)

func TestParseCountsFieldsFromTheLastParenthesis(t *testing.T) {
	// A command name with a space and parentheses, as a program may set it.
	line := "4242 (we(ird) n)) S 17 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 1000 10 18446744073709551615\n"
	s, err := Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := Stat{PID: 4242, Comm: "we(ird) n)", State: 'S', PPID: 17, StartTicks: 987654}
	if s != want {
		t.Fatalf("got %+v, want %+v", s, want)
	}
}

func TestParseRefusesBrokenText(t *testing.T) {
	for _, line := range []string{"", "12 no name S 1", "12 (short) S 1 2 3", "x (a) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"} {
		if _, err := Parse([]byte(line)); err == nil {
			t.Errorf("%q parsed", line)
		}
	}
}

func TestReadOwnProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/stat is Linux's")
	}
	s, err := Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if s.PID != os.Getpid() || s.PPID != os.Getppid() || s.StartTicks == 0 || s.Comm == "" {
		t.Fatalf("read %+v for pid %d (parent %d)", s, os.Getpid(), os.Getppid())
	}
	if _, err := Read(-1); err == nil {
		t.Fatal("pid -1 read")
	}
}
