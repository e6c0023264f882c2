-- Method traces (Traceview, DPA, RMP) are runs of the same workspace as emulator runs. A trace
-- is kept aggregated, so import stays fast and the file small for traces of any size:
-- statistics per (thread, method), caller→callee edges per thread (the profile table's parents
-- and children), and only the calls long enough to be seen on a timeline.
ALTER TABLE run ADD COLUMN kind TEXT NOT NULL DEFAULT 'emulator';  -- 'emulator' or 'methods'

CREATE TABLE trace_info (
    run_id      INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    format      TEXT NOT NULL,    -- traceview, dpa, rmp
    version     INTEGER NOT NULL,
    clock       TEXT NOT NULL,    -- thread-cpu, wall, dual
    vm          TEXT NOT NULL DEFAULT '',
    pid         INTEGER NOT NULL DEFAULT 0,
    start_us    INTEGER NOT NULL DEFAULT 0,
    elapsed_us  INTEGER NOT NULL DEFAULT 0,
    span_min_us INTEGER NOT NULL DEFAULT 0, -- calls shorter than this are not in call_span
    properties  TEXT NOT NULL DEFAULT '',   -- the key section's other lines, "key=value" per line
    orphans     INTEGER NOT NULL DEFAULT 0, -- exits with nothing on their thread's stack
    mismatched  INTEGER NOT NULL DEFAULT 0, -- exits of a method other than the one on top
    unclosed    INTEGER NOT NULL DEFAULT 0, -- calls still open at the end of the trace
    backwards   INTEGER NOT NULL DEFAULT 0, -- events earlier than the one before on their thread
    folded      INTEGER NOT NULL DEFAULT 0  -- calls counted in their caller's path: the call tree was full
);

CREATE TABLE trace_thread (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    tid        INTEGER NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    events     INTEGER NOT NULL DEFAULT 0,
    first_cpu  INTEGER NOT NULL DEFAULT 0,  -- µs: the thread's first and last event on each clock
    last_cpu   INTEGER NOT NULL DEFAULT 0,
    first_wall INTEGER NOT NULL DEFAULT 0,
    last_wall  INTEGER NOT NULL DEFAULT 0,
    level1_cpu INTEGER NOT NULL DEFAULT 0,  -- DPA's process time on this thread: Σ level-1 calls
    level1_wall INTEGER NOT NULL DEFAULT 0,
    max_depth  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run_id, tid)
);

CREATE TABLE trace_method (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    trace_id  INTEGER NOT NULL,       -- the method's id in the trace
    class     TEXT NOT NULL,
    name      TEXT NOT NULL,
    signature TEXT NOT NULL DEFAULT '',
    file      TEXT NOT NULL DEFAULT '',
    line      INTEGER NOT NULL DEFAULT -1,
    UNIQUE (run_id, trace_id)
);

-- Times in microseconds; NULL-free: a clock the trace lacks is 0.
CREATE TABLE method_stat (
    thread_id       INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    method_id       INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    calls           INTEGER NOT NULL,
    recursive_calls INTEGER NOT NULL,
    incl_cpu        INTEGER NOT NULL,
    excl_cpu        INTEGER NOT NULL,
    incl_wall       INTEGER NOT NULL,
    excl_wall       INTEGER NOT NULL,
    PRIMARY KEY (thread_id, method_id)
) WITHOUT ROWID;

-- Classes and packages: inclusive time counts time with any of their methods on the stack,
-- which method_stat cannot give.
CREATE TABLE group_stat (
    thread_id       INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,  -- 'class' or 'package'
    name            TEXT NOT NULL,
    calls           INTEGER NOT NULL,
    recursive_calls INTEGER NOT NULL,
    incl_cpu        INTEGER NOT NULL,
    excl_cpu        INTEGER NOT NULL,
    incl_wall       INTEGER NOT NULL,
    excl_wall       INTEGER NOT NULL,
    PRIMARY KEY (thread_id, kind, name)
) WITHOUT ROWID;

CREATE TABLE call_edge (
    thread_id INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    caller_id INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    callee_id INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    calls     INTEGER NOT NULL,
    incl_cpu  INTEGER NOT NULL,  -- time spent in the callee when called from the caller
    incl_wall INTEGER NOT NULL,
    PRIMARY KEY (thread_id, caller_id, callee_id)
) WITHOUT ROWID;

CREATE TABLE call_span (
    thread_id  INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    method_id  INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    depth      INTEGER NOT NULL,
    start_wall INTEGER NOT NULL,
    end_wall   INTEGER NOT NULL,
    start_cpu  INTEGER NOT NULL,
    end_cpu    INTEGER NOT NULL
);
CREATE INDEX call_span_thread ON call_span(thread_id, start_wall);

-- The aggregated call tree: every distinct call path of a thread, with its calls and exclusive
-- time (what pprof and flame graphs need). path is the trace's method ids, hex, root first,
-- joined by '/'; method_id is the path's last method.
CREATE TABLE call_node (
    thread_id INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    path      TEXT NOT NULL,
    method_id INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    depth     INTEGER NOT NULL,
    calls     INTEGER NOT NULL,
    excl_cpu  INTEGER NOT NULL,
    excl_wall INTEGER NOT NULL,
    PRIMARY KEY (thread_id, path)
) WITHOUT ROWID;
