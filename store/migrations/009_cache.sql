-- Cache simulation and pipeline cycles (issue 27, docs/memory.md).
--
-- run_cache: the geometry a run's misses were simulated for, one row per level in the order
-- l1i, l1d, l2, l3; none for a run that was not simulated. source says where the geometry came
-- from ('profile cortex-a8', '--cache').
CREATE TABLE run_cache (
    run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL,
    level          TEXT NOT NULL,
    size           INTEGER NOT NULL,
    ways           INTEGER NOT NULL,
    line           INTEGER NOT NULL,
    replacement    TEXT NOT NULL,
    write_allocate INTEGER NOT NULL,
    source         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- block_cache: per thread and block, the simulated data accesses and the misses at each level
-- (1, 2, 3 = L1, L2, L3; a level the geometry lacks stays 0). Instruction fetches are the
-- block's instructions × its executions (block_exec), so they are not stored.
CREATE TABLE block_cache (
    thread_id INTEGER NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
    block_id  INTEGER NOT NULL REFERENCES block(id) ON DELETE CASCADE,
    fetch_miss1 INTEGER NOT NULL DEFAULT 0,
    fetch_miss2 INTEGER NOT NULL DEFAULT 0,
    fetch_miss3 INTEGER NOT NULL DEFAULT 0,
    reads       INTEGER NOT NULL DEFAULT 0,
    read_miss1  INTEGER NOT NULL DEFAULT 0,
    read_miss2  INTEGER NOT NULL DEFAULT 0,
    read_miss3  INTEGER NOT NULL DEFAULT 0,
    writes      INTEGER NOT NULL DEFAULT 0,
    write_miss1 INTEGER NOT NULL DEFAULT 0,
    write_miss2 INTEGER NOT NULL DEFAULT 0,
    write_miss3 INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (thread_id, block_id)
) WITHOUT ROWID;
CREATE INDEX block_cache_block ON block_cache(block_id);

-- block_pipeline: a machine model's steady-state cycles for one execution of a block, shared
-- by every run of the workspace. key is the model and the block's code (docs/memory.md:
-- "tool|cpu|triple|encodings"); cycles is NULL when the model could not price the block
-- (it does not assemble, the model is missing), and note says why.
CREATE TABLE block_pipeline (
    key    TEXT PRIMARY KEY,
    cycles REAL,
    note   TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
