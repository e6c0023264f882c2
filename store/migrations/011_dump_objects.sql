-- The object level of a heap dump (issue 29, docs/heap-objects.md): every reachable object's
-- record, so the object view can show any object's fields and its referrers. Only dumps
-- imported since this migration have it.
--   id_size     the dump's id size (4 or 8)
--   record      per object (a dump_object_column index), its record's index, u32 little-endian
--   layouts     the classes' layouts (fields, statics and their values), formats/hprof's encoding
--   ref_start, ref_from  referrers: ref_from[ref_start[i]:ref_start[i+1]] are the objects whose
--               strong references point at object i (u32 and i32 little-endian)
CREATE TABLE dump_objects (
    run_id    INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    id_size   INTEGER NOT NULL,
    record    BLOB NOT NULL,
    layouts   BLOB NOT NULL,
    ref_start BLOB NOT NULL,
    ref_from  BLOB NOT NULL
);

-- The records in chunks of about 16 KiB, in the order the dump lists the objects: first is the
-- index of the chunk's first record; data is each record after its length (uvarint).
CREATE TABLE dump_record_chunk (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    first  INTEGER NOT NULL,
    data   BLOB NOT NULL,
    PRIMARY KEY (run_id, first)
);

-- The heaps dump_object_column's heap column indexes (model.DumpRetention.Heaps).
CREATE TABLE dump_object_heap (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    name   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
