-- Images and system calls of emulator runs: the file (program, shared library, dynamic loader)
-- or region with no file that each block's code is in, functions named per image, and each
-- thread's system calls.
CREATE TABLE image (
    id         INTEGER PRIMARY KEY,
    process_id INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,             -- as QEMU's host mapped it; a label such as [anon] for code with no file
    name       TEXT NOT NULL,             -- last element of path
    kind       TEXT NOT NULL,             -- program, library, loader, no file
    base       INTEGER NOT NULL DEFAULT 0, -- guest address of file offset 0 (no file: the region's start)
    symbols    TEXT NOT NULL DEFAULT '',  -- where its function names came from
    UNIQUE (process_id, path)
);

-- 0: the trace names no image (QEMU logs, version-1 profiles).
ALTER TABLE block ADD COLUMN image_id INTEGER NOT NULL DEFAULT 0;

-- function_insn gains its image: one symbol name may be in several images.
CREATE TABLE function_insn_by_image (
    process_id  INTEGER NOT NULL REFERENCES process(id) ON DELETE CASCADE,
    image_id    INTEGER NOT NULL DEFAULT 0,
    symbol      TEXT NOT NULL,
    mnemonic_id INTEGER NOT NULL REFERENCES mnemonic(id),
    count       INTEGER NOT NULL,
    PRIMARY KEY (process_id, image_id, symbol, mnemonic_id)
) WITHOUT ROWID;
INSERT INTO function_insn_by_image(process_id, image_id, symbol, mnemonic_id, count)
    SELECT process_id, 0, symbol, mnemonic_id, count FROM function_insn;
DROP TABLE function_insn;
ALTER TABLE function_insn_by_image RENAME TO function_insn;

CREATE TABLE syscall (
    thread_id INTEGER NOT NULL REFERENCES thread(id) ON DELETE CASCADE,
    number    INTEGER NOT NULL,
    name      TEXT NOT NULL,
    count     INTEGER NOT NULL,
    insns     INTEGER NOT NULL,  -- instructions the thread ran before these calls, each since its previous call
    PRIMARY KEY (thread_id, number)
) WITHOUT ROWID;
