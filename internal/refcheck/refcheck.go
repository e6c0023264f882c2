// Package refcheck checks a workspace's references for the tests: imports write with SQLite's
// foreign-key checks off (store.importTx), so the tests check what those would have.
package refcheck

import (
	"database/sql"
	"fmt"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// Check lists the rows of the SQLite file at path whose foreign key names a row that does not
// exist (PRAGMA foreign_key_check), as an error; nil when there are none.
func Check(path string) error {
	q, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer q.Close()
	rows, err := q.Query(`SELECT "table", rowid, parent, fkid FROM pragma_foreign_key_check`)
	if err != nil {
		return fmt.Errorf("%s: foreign_key_check: %w", path, err)
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		if len(bad) < 10 {
			bad = append(bad, fmt.Sprintf("%s row %v names a missing %s (foreign key %d)", table, rowid.Int64, parent, fk))
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: dangling references: %s", path, strings.Join(bad, "; "))
	}
	return nil
}
