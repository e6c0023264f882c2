-- Sampled runs (kind 'samples', seed 004 VARI): a system profiler's samples with their call
-- stacks (perf script, simpleperf), kept as model.SampleProfile's arrays: each row's seq is its
-- index in the profile, and the other tables name threads, symbols and nodes by that index.
-- Every view (layers over time, the symbol table, callers and callees, the flame graph) is
-- computed from them, so nothing aggregated is stored.
CREATE TABLE sample_info (
    run_id       INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    format       TEXT NOT NULL,              -- perf-script, simpleperf
    command      TEXT NOT NULL DEFAULT '',   -- the recorded command line, when known
    event        TEXT NOT NULL DEFAULT '',   -- cpu-clock, …
    rate_hz      INTEGER NOT NULL DEFAULT 0, -- the sampling rate asked for; 0 unknown
    left_out     INTEGER NOT NULL DEFAULT 0, -- samples the recording-time target dropped
    left_out_why TEXT NOT NULL DEFAULT ''    -- which target: threads, time window
);

-- The Java packages the user called the application's; none: every class outside the Java
-- library prefixes is.
CREATE TABLE sample_app_package (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    name   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE sample_thread (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    pid    INTEGER NOT NULL,
    tid    INTEGER NOT NULL,
    comm   TEXT NOT NULL DEFAULT '',  -- its last name in the recording
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- (image, symbol) pairs frames are named by; symbol '' when the recorder had no name.
CREATE TABLE sample_symbol (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    image  TEXT NOT NULL,
    symbol TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- The calling-context tree: a frame (symbol) under its caller's context (parent, -1 for a
-- stack's outermost frame; always a smaller seq).
CREATE TABLE sample_node (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    parent INTEGER NOT NULL,
    symbol INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- One row per sample, in time order: its thread, its leaf frame's node, the time since the
-- recording's first sample and the event's count (cpu-clock: nanoseconds).
CREATE TABLE sample (
    run_id  INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    thread  INTEGER NOT NULL,
    node    INTEGER NOT NULL,
    time_ns INTEGER NOT NULL,
    period  INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
