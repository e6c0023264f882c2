// Package perfetto writes Perfetto's protobuf trace (`Trace { repeated TracePacket packet = 1; }`),
// which ui.perfetto.dev and trace_processor open: a track per process and thread, and each
// thread's calls as nested slices (TrackEvent begin and end) on a packet sequence of its own.
// Field numbers are those of protos/perfetto/trace/perfetto_trace.proto (a copy is in
// testdata). Packets are written as they come, so memory stays flat.
package perfetto

import (
	"bufio"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of perfetto_trace.proto.
const (
	traceFieldPacket = 1 // Trace.packet

	packetTimestamp       = 8  // TracePacket.timestamp (ns)
	packetSequenceID      = 10 // TracePacket.trusted_packet_sequence_id
	packetTrackEvent      = 11 // TracePacket.track_event
	packetInternedData    = 12 // TracePacket.interned_data
	packetSequenceFlags   = 13 // TracePacket.sequence_flags
	packetTrackDescriptor = 60 // TracePacket.track_descriptor

	seqIncrementalStateCleared = 1 // TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED
	seqNeedsIncrementalState   = 2 // TracePacket.SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE

	trackUUID       = 1 // TrackDescriptor.uuid
	trackName       = 2 // TrackDescriptor.name
	trackParentUUID = 5 // TrackDescriptor.parent_uuid
	trackProcess    = 3 // TrackDescriptor.process
	trackThread     = 4 // TrackDescriptor.thread

	processPID  = 1 // ProcessDescriptor.pid
	processName = 6 // ProcessDescriptor.process_name

	threadPID  = 1 // ThreadDescriptor.pid
	threadTID  = 2 // ThreadDescriptor.tid
	threadName = 5 // ThreadDescriptor.thread_name

	eventType      = 9  // TrackEvent.type
	eventNameIID   = 10 // TrackEvent.name_iid
	eventTrackUUID = 11 // TrackEvent.track_uuid

	typeSliceBegin = 1 // TrackEvent.Type.TYPE_SLICE_BEGIN
	typeSliceEnd   = 2 // TrackEvent.Type.TYPE_SLICE_END

	internedEventNames = 2 // InternedData.event_names
	eventNameIIDField  = 1 // EventName.iid
	eventNameName      = 2 // EventName.name
)

// Writer streams one Perfetto trace.
type Writer struct {
	w       *bufio.Writer
	err     error
	packets int
	uuids   uint64 // the last track uuid handed out
	seqs    uint32 // the last packet sequence handed out
	packet  []byte // the packet being built
	inner   []byte // a message inside it
}

// NewWriter starts a trace on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// Packets is how many packets were written so far.
func (w *Writer) Packets() int { return w.packets }

// Close flushes the trace; the first write error, if any, is returned.
func (w *Writer) Close() error {
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

// Process writes the track of a process and returns its uuid, the parent of its threads.
func (w *Writer) Process(pid int, name string) uint64 {
	w.uuids++
	w.inner = protowire.AppendTag(w.inner[:0], processPID, protowire.VarintType)
	w.inner = protowire.AppendVarint(w.inner, uint64(int64(pid)))
	if name != "" {
		w.inner = appendString(w.inner, processName, name)
	}
	w.seqs++
	w.descriptor(w.seqs, w.uuids, 0, trackProcess, w.inner)
	return w.uuids
}

// Thread writes the track of a thread under its process's (0: none) and returns where its
// slices go. Each thread has its own packet sequence, so its events only need to be in time
// order among themselves.
func (w *Writer) Thread(process uint64, pid, tid int, name string) *Thread {
	w.uuids++
	w.inner = protowire.AppendTag(w.inner[:0], threadPID, protowire.VarintType)
	w.inner = protowire.AppendVarint(w.inner, uint64(int64(pid)))
	w.inner = protowire.AppendTag(w.inner, threadTID, protowire.VarintType)
	w.inner = protowire.AppendVarint(w.inner, uint64(int64(tid)))
	if name != "" {
		w.inner = appendString(w.inner, threadName, name)
	}
	w.seqs++
	w.descriptor(w.seqs, w.uuids, process, trackThread, w.inner)
	return &Thread{w: w, uuid: w.uuids, seq: w.seqs, names: map[string]uint64{}}
}

// descriptor writes a TrackDescriptor packet, the first of its sequence, which clears the
// sequence's interned names.
func (w *Writer) descriptor(seq uint32, uuid, parent uint64, field protowire.Number, body []byte) {
	var d []byte
	d = protowire.AppendTag(d, trackUUID, protowire.VarintType)
	d = protowire.AppendVarint(d, uuid)
	if parent != 0 {
		d = protowire.AppendTag(d, trackParentUUID, protowire.VarintType)
		d = protowire.AppendVarint(d, parent)
	}
	d = protowire.AppendTag(d, field, protowire.BytesType)
	d = protowire.AppendBytes(d, body)
	p := w.header(seq, seqIncrementalStateCleared|seqNeedsIncrementalState)
	p = protowire.AppendTag(p, packetTrackDescriptor, protowire.BytesType)
	w.packet = protowire.AppendBytes(p, d)
	w.flushPacket()
}

// header starts a packet on a sequence.
func (w *Writer) header(seq uint32, flags uint64) []byte {
	p := protowire.AppendTag(w.packet[:0], packetSequenceID, protowire.VarintType)
	p = protowire.AppendVarint(p, uint64(seq))
	p = protowire.AppendTag(p, packetSequenceFlags, protowire.VarintType)
	return protowire.AppendVarint(p, flags)
}

// flushPacket writes the packet built as one Trace.packet.
func (w *Writer) flushPacket() {
	if w.err != nil {
		return
	}
	var tag [2 * binaryMaxVarint]byte
	b := protowire.AppendTag(tag[:0], traceFieldPacket, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(w.packet)))
	if _, w.err = w.w.Write(b); w.err == nil {
		_, w.err = w.w.Write(w.packet)
	}
	w.packets++
}

const binaryMaxVarint = 10

func appendString(b []byte, field protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// Thread is one thread's track: its slices, begun and ended in time order, nested.
type Thread struct {
	w      *Writer
	uuid   uint64
	seq    uint32
	names  map[string]uint64 // interned slice names of the sequence
	Slices int               // slices begun
}

// Begin opens a slice at tsNS (nanoseconds).
func (t *Thread) Begin(tsNS uint64, name string) {
	w := t.w
	p := w.header(t.seq, seqNeedsIncrementalState)
	p = protowire.AppendTag(p, packetTimestamp, protowire.VarintType)
	p = protowire.AppendVarint(p, tsNS)
	iid, ok := t.names[name]
	if !ok {
		iid = uint64(len(t.names) + 1)
		t.names[name] = iid
		var en []byte
		en = protowire.AppendTag(en, eventNameIIDField, protowire.VarintType)
		en = protowire.AppendVarint(en, iid)
		en = appendString(en, eventNameName, name)
		w.inner = protowire.AppendTag(w.inner[:0], internedEventNames, protowire.BytesType)
		w.inner = protowire.AppendBytes(w.inner, en)
		p = protowire.AppendTag(p, packetInternedData, protowire.BytesType)
		p = protowire.AppendBytes(p, w.inner)
	}
	w.inner = t.event(w.inner[:0], typeSliceBegin)
	w.inner = protowire.AppendTag(w.inner, eventNameIID, protowire.VarintType)
	w.inner = protowire.AppendVarint(w.inner, iid)
	p = protowire.AppendTag(p, packetTrackEvent, protowire.BytesType)
	w.packet = protowire.AppendBytes(p, w.inner)
	w.flushPacket()
	t.Slices++
}

// End closes the innermost open slice at tsNS.
func (t *Thread) End(tsNS uint64) {
	w := t.w
	p := w.header(t.seq, seqNeedsIncrementalState)
	p = protowire.AppendTag(p, packetTimestamp, protowire.VarintType)
	p = protowire.AppendVarint(p, tsNS)
	w.inner = t.event(w.inner[:0], typeSliceEnd)
	p = protowire.AppendTag(p, packetTrackEvent, protowire.BytesType)
	w.packet = protowire.AppendBytes(p, w.inner)
	w.flushPacket()
}

func (t *Thread) event(b []byte, typ uint64) []byte {
	b = protowire.AppendTag(b, eventType, protowire.VarintType)
	b = protowire.AppendVarint(b, typ)
	b = protowire.AppendTag(b, eventTrackUUID, protowire.VarintType)
	return protowire.AppendVarint(b, t.uuid)
}
