-- ISA cost profiles a user imported or saved from the editor.
-- The default category "Undefined" is stored as an ordinary category row placed last.
CREATE TABLE profile (
    id                      INTEGER PRIMARY KEY,
    name                    TEXT NOT NULL UNIQUE,
    architecture            TEXT NOT NULL DEFAULT '',
    organization            TEXT NOT NULL DEFAULT '',
    isas                    TEXT NOT NULL,            -- space-separated: "ARM Thumb"
    source                  TEXT NOT NULL DEFAULT '',
    frequency_ghz           REAL NOT NULL DEFAULT 0,  -- reference data of seed 000 §5.2; 0 = unknown
    cpi                     REAL NOT NULL DEFAULT 0,
    processor_power_w       REAL NOT NULL DEFAULT 0,
    base_instructions       REAL NOT NULL DEFAULT 0,
    base_cache_misses       REAL NOT NULL DEFAULT 0,
    memory_access_energy_nj REAL NOT NULL DEFAULT 0,
    saved_at                TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE category (
    id         INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    cycles     REAL NOT NULL CHECK (cycles >= 0),
    power_mw   REAL NOT NULL CHECK (power_mw >= 0),
    UNIQUE (profile_id, name)
);

CREATE TABLE category_instruction (
    category_id INTEGER NOT NULL REFERENCES category(id) ON DELETE CASCADE,
    isa         TEXT NOT NULL,
    mnemonic    TEXT NOT NULL,
    PRIMARY KEY (category_id, isa, mnemonic)
);

-- Where a number came from: category_id NULL means the profile's reference data.
CREATE TABLE citation (
    id          INTEGER PRIMARY KEY,
    profile_id  INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
    category_id INTEGER REFERENCES category(id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    cost        TEXT NOT NULL,
    estimate    INTEGER NOT NULL,
    text        TEXT NOT NULL
);
CREATE INDEX citation_profile ON citation(profile_id);
