package shapes

import (
	"io"
	"time"

	"androprof/formats/dpa"
	"androprof/formats/traceview"
	"androprof/model/calls"
)

// tieMicros is how long every call of the ties shape lasts, and tieGap the time between two
// calls, so that the calls are the longest of their trace and all of one length: the timeline's
// call keeper has to cut among ties (issue 24, finding 9).
const (
	tieMicros = 10
	tieGap    = 5
)

// TiesTraceview writes a Traceview trace (version 3, classic layout, dual clock) in which one
// thread makes n calls of one method one after another, each tieMicros long on both clocks.
func TiesTraceview(w io.Writer, n int) error {
	tw, err := traceview.NewWriter(w, traceview.WriterOptions{Version: 3, Clock: calls.ClockDual,
		ElapsedMicros: uint64(n) * (tieMicros + tieGap), NumMethodCalls: int64(n)})
	if err != nil {
		return err
	}
	m := calls.MethodInfo{ID: 0x1000, Class: "com/example/Ties", Name: "same", Signature: "()V", File: "Ties.java"}
	if err := tw.Thread(calls.ThreadInfo{TID: 1, Name: "main"}); err != nil {
		return err
	}
	if err := tw.Method(m); err != nil {
		return err
	}
	for i := range uint64(n) {
		t := i * (tieMicros + tieGap)
		tw.Event(calls.MethodEvent{TID: 1, Method: m.ID, Action: calls.Enter, ThreadCPU: t, Wall: t})
		tw.Event(calls.MethodEvent{TID: 1, Method: m.ID, Action: calls.Exit, ThreadCPU: t + tieMicros, Wall: t + tieMicros})
	}
	return tw.Close()
}

// TiesDPA writes a DPA log whose one process's main thread makes n calls of one method one after
// another, each tieMicros long and reading no clock inside, so the deduction leaves them equal.
func TiesDPA(w io.Writer, n int) error {
	dw := dpa.NewWriter(w)
	dw.Process(1000, "com.example.ties")
	dw.Thread(calls.ThreadInfo{TID: 1000, Name: "main"})
	dw.Method(calls.MethodInfo{ID: 1, Class: "com/example/Ties", Name: "same", Signature: "()V"})
	const us = 1000 // ns
	for i := range int64(n) {
		t := i * (tieMicros + tieGap) * us
		c := calls.DPACall{TID: 1000, Level: 1, Method: 1, Entry: time.Duration(t), Exit: time.Duration(t + tieMicros*us)}
		dw.Enter(c)
		if err := dw.Exit(c); err != nil {
			return err
		}
	}
	if err := dw.End(); err != nil {
		return err
	}
	return dw.Flush()
}
