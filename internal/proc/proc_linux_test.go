package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary a program that runs a shell as the runners run their
// programs; the shell starts `sleep 60` (as a guest forks under qemu-user, or perf starts
// java), prints its own pid and the sleep's, and waits to be killed.
const helperEnv = "ANDROPROF_PROC_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		cmd, _ := Wrapped(context.Background(), []string{"sh", "-c", "sleep 60 & echo $$ $!; wait"}, nil, os.Stdout, nil)
		if err := Run(cmd); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// running says whether pid is a process that runs (not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// Cancelling a wrapped command ends every process of its group, a program's own children too,
// before Wait returns: the caller may then remove the folder they wrote into.
func TestCancelEndsTheWholeGroup(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := filepath.Join(t.TempDir(), "started")
	script := "sleep 60 & sleep 60 & echo $! > " + started + "; wait"
	cmd, _ := Wrapped(ctx, []string{"sh", "-c", script}, nil, nil, nil)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sleeper int
	for deadline := time.Now().Add(10 * time.Second); sleeper == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(started)
		sleeper, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if sleeper == 0 || !GroupRunning(cmd.Process.Pid) {
		t.Fatalf("the group never ran (sleep %d)", sleeper)
	}
	cancel()
	cmd.Wait()
	if GroupRunning(cmd.Process.Pid) || running(sleeper) {
		t.Errorf("after Wait, group %d still runs (its sleep %d: %v)", cmd.Process.Pid, sleeper, running(sleeper))
	}
}

// A program started by a process that is killed (SIGKILL, which no handler sees) dies with it,
// and so does what the program started.
func TestProgramDiesWithItsStarter(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := exec.Command(exe)
	helper.Env = append(os.Environ(), helperEnv+"=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	var shell, sleeper int
	if _, err := fmt.Sscan(line, &shell, &sleeper); err != nil {
		helper.Process.Kill()
		t.Fatalf("helper said %q", line)
	}
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for (running(shell) || running(sleeper)) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for what, pid := range map[string]int{"the program": shell, "what the program started": sleeper} {
		if running(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s (%d) outlived the process that started it", what, pid)
		}
	}
}
