-- What keeps a heap dump's memory alive (model.DumpRetention, docs/hprof.md): the exact
-- dominator tree of the objects reachable from the GC roots, retained sizes per object and per
-- class, and one shortest reference chain from a root to every reachable object. Only dumps
-- imported since this migration have it.
CREATE TABLE dump_retention (
    run_id    INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    weak      INTEGER NOT NULL,  -- 1: referents of weak/soft/phantom/finalizer references retained too
    reachable INTEGER NOT NULL   -- bytes reachable from the roots
);

-- Per class: its instances (arrays, for an array class) in the whole dump, their shallow
-- bytes, and the bytes they keep alive together.
CREATE TABLE dump_retained_class (
    run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    name      TEXT NOT NULL,
    instances INTEGER NOT NULL,
    shallow   INTEGER NOT NULL,
    retained  INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- The names dump_object_column's field column indexes: fields ("table") and root kinds.
CREATE TABLE dump_field (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    name   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- Every reachable object, column by column (model.DumpColumns): a dump holds millions, which
-- rows would take many seconds to write. Each column is one blob of little-endian values, the
-- i-th value of each the i-th object; an object's dominator and path parent come before it.
--   id       u64  the object's id in the dump (its address)
--   class    i32  a dump_retained_class seq: its class, or for a class object the class it is
--   is_class u8   1 for a class object
--   shallow, retained  u64
--   idom, parent       i32  object indexes; -1 at the top level, for a root
--   field    i32  the reference from parent, or a root's kind: a dump_field seq, or for an
--                  array element -(index+1)
--   depth    i32  references from a root
CREATE TABLE dump_object_column (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    data   BLOB NOT NULL,
    PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
