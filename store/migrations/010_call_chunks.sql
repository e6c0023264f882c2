-- Every call of a method run (issue 28, docs/calls-store.md): the calls of each thread, in the
-- order they ended, in chunks of up to 4,096 packed with deltas and varints (model/calls/chunks.go).
-- min_start and max_end bound the chunk's calls on the run's timeline clock (wall, else
-- thread-CPU), so a window of the timeline reads only the chunks that overlap it; the index
-- answers that without reading the blobs.
CREATE TABLE call_chunk (
    id        INTEGER PRIMARY KEY,
    thread_id INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    n_calls   INTEGER NOT NULL,
    min_start INTEGER NOT NULL,
    max_end   INTEGER NOT NULL,
    data      BLOB NOT NULL
);
CREATE UNIQUE INDEX call_chunk_seq ON call_chunk(thread_id, seq);
CREATE INDEX call_chunk_window ON call_chunk(thread_id, max_end, min_start, n_calls, seq);

-- every_call is 1 when the run keeps every call in call_chunk; runs imported before this
-- migration have only the longest calls, in call_span. call_methods is the method ids the
-- chunks index, in their order, as unsigned varints.
ALTER TABLE trace_info ADD COLUMN every_call INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trace_info ADD COLUMN call_methods BLOB NOT NULL DEFAULT x'';
