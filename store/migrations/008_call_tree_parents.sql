-- Call trees as parent pointers (issue 24, finding 8): a node names its method and its caller's
-- node instead of its whole path, so a tree costs disk linear in its nodes however deep it
-- nests (a path per node made a depth-10,000 trace a 267 MB workspace). parent is the caller's
-- node, NULL for a level-1 call; it is not a foreign key, so deleting a run deletes its nodes
-- through their thread, never as a cascade down a chain as deep as the tree. A parent's id is
-- always smaller than its children's.
CREATE TABLE call_node_new (
    id        INTEGER PRIMARY KEY,
    thread_id INTEGER NOT NULL REFERENCES trace_thread(id) ON DELETE CASCADE,
    parent    INTEGER,
    method_id INTEGER NOT NULL REFERENCES trace_method(id) ON DELETE CASCADE,
    calls     INTEGER NOT NULL,
    excl_cpu  INTEGER NOT NULL,
    excl_wall INTEGER NOT NULL
);

-- Old rows get ids in the order the old schema read them (thread, then path): a path comes
-- after its parent's, which is a prefix of it. A path's parent is the path without its last
-- hex id: rtrim strips the id's hex digits, then its '/'.
CREATE TABLE call_node_path (
    id          INTEGER PRIMARY KEY,
    thread_id   INTEGER NOT NULL,
    path        TEXT NOT NULL,
    parent_path TEXT
);
INSERT INTO call_node_path(id, thread_id, path, parent_path)
    SELECT row_number() OVER (ORDER BY thread_id, path), thread_id, path,
           CASE WHEN instr(path, '/') = 0 THEN NULL ELSE rtrim(rtrim(path, '0123456789abcdef'), '/') END
    FROM call_node;
CREATE UNIQUE INDEX call_node_path_key ON call_node_path(thread_id, path);
INSERT INTO call_node_new(id, thread_id, parent, method_id, calls, excl_cpu, excl_wall)
    SELECT p.id, p.thread_id, q.id, n.method_id, n.calls, n.excl_cpu, n.excl_wall
    FROM call_node_path p
    JOIN call_node n ON n.thread_id = p.thread_id AND n.path = p.path
    LEFT JOIN call_node_path q ON q.thread_id = p.thread_id AND q.path = p.parent_path
    ORDER BY p.id;
DROP TABLE call_node_path;
DROP TABLE call_node;
ALTER TABLE call_node_new RENAME TO call_node;
CREATE INDEX call_node_thread ON call_node(thread_id, id);
