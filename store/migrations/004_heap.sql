-- Heap logs (kind 'heap') and heap dumps (kind 'heapdump') are runs of the same workspace.
-- A heap log is kept aggregated (model.HeapProfile): counts per (scope, key, time bucket), so a
-- log of any length is a small file and every chart is a small query. Times are bytes of
-- allocation; a bucket is heap_info.cohort bytes, and bucket k is also cohort k.
CREATE TABLE heap_info (
    run_id        INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    format        TEXT NOT NULL,      -- heaplog
    version       INTEGER NOT NULL,
    vm            TEXT NOT NULL DEFAULT '',
    properties    TEXT NOT NULL DEFAULT '',  -- "key=value" per line
    cohort        INTEGER NOT NULL,   -- bytes of allocation per bucket
    end_time      INTEGER NOT NULL,   -- total bytes allocated
    alloc_objects INTEGER NOT NULL, alloc_bytes INTEGER NOT NULL,
    alloc_array_objects INTEGER NOT NULL, alloc_array_bytes INTEGER NOT NULL,
    freed_objects INTEGER NOT NULL, freed_bytes INTEGER NOT NULL,
    freed_array_objects INTEGER NOT NULL, freed_array_bytes INTEGER NOT NULL,
    max_live_objects INTEGER NOT NULL, max_live_bytes INTEGER NOT NULL,
    max_live_array_objects INTEGER NOT NULL, max_live_array_bytes INTEGER NOT NULL,
    max_live_at   INTEGER NOT NULL,
    unknown_frees INTEGER NOT NULL DEFAULT 0  -- deaths of ids never allocated: skipped
);

CREATE TABLE heap_class (
    run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    class_id INTEGER NOT NULL,      -- the log's id
    name     TEXT NOT NULL,         -- JVM internal form: java/lang/String, [I
    is_array INTEGER NOT NULL,
    PRIMARY KEY (run_id, class_id)
) WITHOUT ROWID;

CREATE TABLE heap_thread (
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    thread_id  INTEGER NOT NULL,
    name       TEXT NOT NULL,
    grp        TEXT NOT NULL DEFAULT '',
    start_time INTEGER NOT NULL,
    end_time   INTEGER NOT NULL,
    ended      INTEGER NOT NULL,
    PRIMARY KEY (run_id, thread_id)
) WITHOUT ROWID;

CREATE TABLE heap_gc (
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    start_time INTEGER NOT NULL,
    end_time   INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- scope: 1 cohort (key = birth bucket), 2 thread (key = thread_id), 3 class (key = class_id),
-- 4 size (key = size class in bytes). born/survived: objects born in the bucket (survived: still
-- live at the end); died: objects that died in it, with the sum of their lifetimes.
CREATE TABLE heap_cell (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    scope  INTEGER NOT NULL,
    key    INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    born_objects INTEGER NOT NULL, born_bytes INTEGER NOT NULL,
    born_array_objects INTEGER NOT NULL, born_array_bytes INTEGER NOT NULL,
    survived_objects INTEGER NOT NULL, survived_bytes INTEGER NOT NULL,
    survived_array_objects INTEGER NOT NULL, survived_array_bytes INTEGER NOT NULL,
    died_objects INTEGER NOT NULL, died_bytes INTEGER NOT NULL,
    died_array_objects INTEGER NOT NULL, died_array_bytes INTEGER NOT NULL,
    lifetime       INTEGER NOT NULL,
    array_lifetime INTEGER NOT NULL,
    PRIMARY KEY (run_id, scope, key, bucket)
) WITHOUT ROWID;

-- Pointer distances: mutations (snapshot 0, seed figure 5.22) and heap snapshots (1, figure
-- 5.23) per time bucket; distance is the signed power-of-two bucket of model.DistanceBucket.
CREATE TABLE heap_pointer (
    run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    snapshot INTEGER NOT NULL,
    bucket   INTEGER NOT NULL,
    distance INTEGER NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (run_id, snapshot, bucket, distance)
) WITHOUT ROWID;

-- HPROF heap dumps, summarised (model.HeapDump).
CREATE TABLE dump_info (
    run_id         INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    version        TEXT NOT NULL,    -- "JAVA PROFILE 1.0.3"
    id_size        INTEGER NOT NULL,
    timestamp_ms   INTEGER NOT NULL,
    loaded_classes INTEGER NOT NULL,
    array_classes  INTEGER NOT NULL,
    roots          INTEGER NOT NULL
);

CREATE TABLE dump_heap (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,         -- order of first use in the dump
    name   TEXT NOT NULL,            -- zygote, app, image; default in 1.0.2 dumps
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE dump_class (
    run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    heap     TEXT NOT NULL,
    name     TEXT NOT NULL,
    is_array INTEGER NOT NULL,
    objects  INTEGER NOT NULL,
    bytes    INTEGER NOT NULL,
    PRIMARY KEY (run_id, heap, name)
) WITHOUT ROWID;

CREATE TABLE dump_size (
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    heap       TEXT NOT NULL,
    size_class INTEGER NOT NULL,
    instance_objects INTEGER NOT NULL, instance_bytes INTEGER NOT NULL,
    array_objects    INTEGER NOT NULL, array_bytes    INTEGER NOT NULL,
    PRIMARY KEY (run_id, heap, size_class)
) WITHOUT ROWID;

CREATE TABLE dump_pointer (
    run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    heap     TEXT NOT NULL,
    distance INTEGER NOT NULL,
    count    INTEGER NOT NULL,
    PRIMARY KEY (run_id, heap, distance)
) WITHOUT ROWID;
