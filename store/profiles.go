package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"androprof/model/cost"
)

// SaveProfile stores the profile, replacing one of the same name, in one transaction.
func (db *DB) SaveProfile(ctx context.Context, p *cost.Profile) error {
	if probs := cost.Validate(p); len(probs) > 0 {
		return fmt.Errorf("profile %q not saved: %s", p.Name, probs[0].Msg)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM profile WHERE name = ?`, p.Name); err != nil {
			return err
		}
		r := p.Reference
		res, err := tx.ExecContext(ctx, `INSERT INTO profile(name, architecture, organization, isas, source,
			frequency_ghz, cpi, processor_power_w, base_instructions, base_cache_misses, memory_access_energy_nj)
			VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			p.Name, p.Architecture, p.Organization, joinISAs(p.ISAs), p.Source,
			r.FrequencyGHz, r.CPI, r.ProcessorPowerW, r.BaseInstructions, r.BaseCacheMisses, r.MemoryAccessEnergy)
		if err != nil {
			return err
		}
		pid, _ := res.LastInsertId()
		if err := insertCitations(ctx, tx, pid, nil, p.Citations); err != nil {
			return err
		}
		catStmt, err := tx.PrepareContext(ctx, `INSERT INTO category(profile_id, position, name, cycles, power_mw) VALUES (?,?,?,?,?)`)
		if err != nil {
			return err
		}
		defer catStmt.Close()
		insStmt, err := tx.PrepareContext(ctx, `INSERT INTO category_instruction(category_id, isa, mnemonic) VALUES (?,?,?)`)
		if err != nil {
			return err
		}
		defer insStmt.Close()
		for pos, c := range append(append([]cost.Category(nil), p.Categories...), p.Undefined) {
			res, err := catStmt.ExecContext(ctx, pid, pos, c.Name, c.Cycles, c.PowerMW)
			if err != nil {
				return err
			}
			cid, _ := res.LastInsertId()
			for _, in := range c.Instructions {
				if _, err := insStmt.ExecContext(ctx, cid, string(in.ISA), in.Mnemonic); err != nil {
					return err
				}
			}
			if err := insertCitations(ctx, tx, pid, &cid, c.Citations); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertCitations(ctx context.Context, tx *sql.Tx, pid int64, cid *int64, cites []cost.Citation) error {
	for i, c := range cites {
		if _, err := tx.ExecContext(ctx, `INSERT INTO citation(profile_id, category_id, position, cost, estimate, text) VALUES (?,?,?,?,?,?)`,
			pid, cid, i, c.Cost, c.Estimate, c.Text); err != nil {
			return err
		}
	}
	return nil
}

func joinISAs(isas []cost.ISA) string {
	s := make([]string, len(isas))
	for i, isa := range isas {
		s[i] = string(isa)
	}
	return strings.Join(s, " ")
}

func splitISAs(s string) []cost.ISA {
	var out []cost.ISA
	for _, f := range strings.Fields(s) {
		out = append(out, cost.ISA(f))
	}
	return out
}

// Profiles lists the stored profiles by name.
func (db *DB) Profiles(ctx context.Context) ([]cost.ProfileInfo, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT p.name, p.architecture, p.organization, p.isas, p.saved_at,
		(SELECT count(*) FROM category c WHERE c.profile_id = p.id AND c.name <> ?)
		FROM profile p ORDER BY p.name`, cost.UndefinedCategory)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cost.ProfileInfo
	for rows.Next() {
		var pi cost.ProfileInfo
		var isas string
		if err := rows.Scan(&pi.Name, &pi.Architecture, &pi.Organization, &isas, &pi.SavedAt, &pi.Categories); err != nil {
			return nil, err
		}
		pi.ISAs = splitISAs(isas)
		out = append(out, pi)
	}
	return out, rows.Err()
}

// Profile loads one stored profile by name.
func (db *DB) Profile(ctx context.Context, name string) (*cost.Profile, error) {
	var pid int64
	p := &cost.Profile{}
	var isas string
	r := &p.Reference
	err := db.read.QueryRowContext(ctx, `SELECT id, name, architecture, organization, isas, source,
		frequency_ghz, cpi, processor_power_w, base_instructions, base_cache_misses, memory_access_energy_nj
		FROM profile WHERE name = ?`, name).Scan(&pid, &p.Name, &p.Architecture, &p.Organization, &isas, &p.Source,
		&r.FrequencyGHz, &r.CPI, &r.ProcessorPowerW, &r.BaseInstructions, &r.BaseCacheMisses, &r.MemoryAccessEnergy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("profile %q: %w", name, cost.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	p.ISAs = splitISAs(isas)

	cats := map[int64]*cost.Category{}
	var order []int64
	rows, err := db.read.QueryContext(ctx, `SELECT id, name, cycles, power_mw FROM category WHERE profile_id = ? ORDER BY position`, pid)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		c := &cost.Category{}
		var id int64
		if err := rows.Scan(&id, &c.Name, &c.Cycles, &c.PowerMW); err != nil {
			rows.Close()
			return nil, err
		}
		cats[id] = c
		order = append(order, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	rows, err = db.read.QueryContext(ctx, `SELECT ci.category_id, ci.isa, ci.mnemonic FROM category_instruction ci
		JOIN category c ON c.id = ci.category_id WHERE c.profile_id = ? ORDER BY ci.category_id, ci.rowid`, pid)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var cid int64
		var in cost.Instruction
		if err := rows.Scan(&cid, &in.ISA, &in.Mnemonic); err != nil {
			rows.Close()
			return nil, err
		}
		cats[cid].Instructions = append(cats[cid].Instructions, in)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	rows, err = db.read.QueryContext(ctx, `SELECT category_id, cost, estimate, text FROM citation WHERE profile_id = ? ORDER BY category_id, position`, pid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var cid sql.NullInt64
		var c cost.Citation
		if err := rows.Scan(&cid, &c.Cost, &c.Estimate, &c.Text); err != nil {
			return nil, err
		}
		if !cid.Valid {
			p.Citations = append(p.Citations, c)
		} else {
			cats[cid.Int64].Citations = append(cats[cid.Int64].Citations, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range order {
		if cats[id].Name == cost.UndefinedCategory {
			p.Undefined = *cats[id]
		} else {
			p.Categories = append(p.Categories, *cats[id])
		}
	}
	if p.Undefined.Name == "" {
		p.Undefined.Name = cost.UndefinedCategory
	}
	return p, nil
}

// DeleteProfile removes a stored profile.
func (db *DB) DeleteProfile(ctx context.Context, name string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM profile WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("profile %q: %w", name, cost.ErrNotFound)
		}
		return nil
	})
}
