-- A block's instructions are kept once per distinct code, not once per block (issue 30): the runs
-- of one program on one core repeat the same blocks, and writing their instructions again for
-- every run was the largest part of a batch import's single writer (docs/batch-import.md).
--   block_code  one distinct code; digest is the SHA-256 of the block's ISA and its instructions
--               (address, encoding, mnemonic, printed mnemonic, operands), NULL for the blocks
--               imported before this migration, each of which keeps a code of its own
--   code_insn   a code's instructions, what block_insn was
-- block_insn stays as a view with its old columns, so queries written for it still work.
CREATE TABLE block_code (
    id     INTEGER PRIMARY KEY AUTOINCREMENT, -- never used again: androprof remembers codes by id
    digest BLOB UNIQUE
);

CREATE TABLE code_insn (
    code_id     INTEGER NOT NULL REFERENCES block_code(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    addr        INTEGER NOT NULL,
    encoding    TEXT NOT NULL,     -- hex units as the log printed them; '' when it had none
    mnemonic_id INTEGER NOT NULL REFERENCES mnemonic(id),
    printed     TEXT NOT NULL,     -- the mnemonic as printed, before normalisation
    operands    TEXT NOT NULL,
    PRIMARY KEY (code_id, idx)
) WITHOUT ROWID;

ALTER TABLE block ADD COLUMN code_id INTEGER REFERENCES block_code(id);

INSERT INTO block_code(id, digest) SELECT id, NULL FROM block;
INSERT INTO code_insn(code_id, idx, addr, encoding, mnemonic_id, printed, operands)
    SELECT block_id, idx, addr, encoding, mnemonic_id, printed, operands FROM block_insn;
UPDATE block SET code_id = id;
DROP TABLE block_insn;

CREATE VIEW block_insn AS
    SELECT b.id AS block_id, c.idx, c.addr, c.encoding, c.mnemonic_id, c.printed, c.operands
    FROM block b JOIN code_insn c ON c.code_id = b.code_id;
