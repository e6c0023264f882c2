-- Emulator runs: processes, threads, translated blocks with their instructions, and how often
-- each thread executed each block. process_insn and function_insn are derived at import so that
-- applying or changing a profile is a small query, never a re-import.
CREATE TABLE run (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    source     TEXT NOT NULL DEFAULT '',  -- what was imported or run
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE process (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    pid        INTEGER NOT NULL,
    parent_pid INTEGER NOT NULL DEFAULT 0,
    name       TEXT NOT NULL DEFAULT '',
    UNIQUE (run_id, pid)
);

CREATE TABLE thread (
    id         INTEGER PRIMARY KEY,
    process_id INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    tid        INTEGER NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    UNIQUE (process_id, tid)
);

-- Normalised mnemonics (docs/catalogues.md), shared by all runs.
CREATE TABLE mnemonic (
    id   INTEGER PRIMARY KEY,
    isa  TEXT NOT NULL,
    text TEXT NOT NULL,
    UNIQUE (isa, text)
);

CREATE TABLE block (
    id         INTEGER PRIMARY KEY,
    process_id INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    pc         INTEGER NOT NULL,
    isa        TEXT NOT NULL,
    symbol     TEXT NOT NULL DEFAULT '',
    n_insns    INTEGER NOT NULL,
    executions INTEGER NOT NULL DEFAULT 0,  -- derived: Σ block_exec.count over threads
    mix        BLOB NOT NULL,                -- derived: uvarint pairs (mnemonic id, occurrences)
    UNIQUE (process_id, pc, isa)
);

CREATE TABLE block_insn (
    block_id    INTEGER NOT NULL REFERENCES block(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    addr        INTEGER NOT NULL,
    encoding    TEXT NOT NULL,     -- hex units as the log printed them; '' when it had none
    mnemonic_id INTEGER NOT NULL REFERENCES mnemonic(id),
    printed     TEXT NOT NULL,     -- the mnemonic as printed, before normalisation
    operands    TEXT NOT NULL,
    PRIMARY KEY (block_id, idx)
) WITHOUT ROWID;

CREATE TABLE block_exec (
    thread_id INTEGER NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
    block_id  INTEGER NOT NULL REFERENCES block(id) ON DELETE CASCADE,
    count     INTEGER NOT NULL,
    PRIMARY KEY (thread_id, block_id)
) WITHOUT ROWID;
CREATE INDEX block_exec_block ON block_exec(block_id);

CREATE TABLE process_insn (
    process_id  INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    mnemonic_id INTEGER NOT NULL REFERENCES mnemonic(id),
    count       INTEGER NOT NULL,
    PRIMARY KEY (process_id, mnemonic_id)
) WITHOUT ROWID;

CREATE TABLE function_insn (
    process_id  INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    symbol      TEXT NOT NULL,
    mnemonic_id INTEGER NOT NULL REFERENCES mnemonic(id),
    count       INTEGER NOT NULL,
    PRIMARY KEY (process_id, symbol, mnemonic_id)
) WITHOUT ROWID;
