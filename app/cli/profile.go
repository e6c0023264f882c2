package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"androprof/controller"
	"androprof/internal/human"
	"androprof/internal/termtext"
	"androprof/isaprofiles"
	"androprof/model/cost"
)

func runProfile(ctx context.Context, sub string, args []string, env Env) error {
	fs, dbPath := newFlags("profile "+sub, env)
	asJSON := fs.Bool("json", false, "write JSON for scripts")
	out := fs.String("out", "", "output `file` (export)")
	profRef := fs.String("profile", "", "profile `NAME|FILE` (categorize)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if sub == "check" { // needs no database
		return checkProfiles(pos, *asJSON, env)
	}
	profiles, closeDB, err := profileStore(env, *dbPath, sub == "import")
	if err != nil {
		return err
	}
	defer closeDB()
	switch sub {
	case "list":
		return listProfiles(ctx, profiles, *asJSON, env)
	case "show":
		if len(pos) != 1 {
			return fmt.Errorf("%w: profile show takes one NAME|FILE", errUsage)
		}
		p, err := profiles.Resolve(ctx, pos[0])
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(env.Stdout, profileJSON(p))
		}
		return showProfile(p, env)
	case "import":
		if len(pos) == 0 {
			return fmt.Errorf("%w: profile import takes FILE...", errUsage)
		}
		var kept []string
		for _, path := range pos {
			p, err := profiles.Import(ctx, path)
			if err != nil {
				return err
			}
			kept = append(kept, p.Name)
			if !*asJSON {
				fmt.Fprintf(env.Stdout, "kept %q in %s\n", p.Name, *dbPath)
			}
		}
		if *asJSON {
			return writeJSON(env.Stdout, map[string]any{"database": *dbPath, "profiles": kept})
		}
		return nil
	case "export":
		if len(pos) != 1 || *out == "" {
			return fmt.Errorf("%w: profile export takes NAME|FILE --out FILE", errUsage)
		}
		p, err := profiles.Resolve(ctx, pos[0])
		if err != nil {
			return err
		}
		existed := exists(*out)
		if err := isaprofiles.WriteFile(*out, p); err != nil {
			return err
		}
		if existed {
			sayReplaced(*out, env)
		}
		if *asJSON {
			return writeJSON(env.Stdout, map[string]any{"profile": p.Name, "out": *out})
		}
		return nil
	case "categorize":
		if *profRef == "" || len(pos) == 0 {
			return fmt.Errorf("%w: profile categorize takes --profile NAME|FILE LOG...", errUsage)
		}
		p, err := profiles.Resolve(ctx, *profRef)
		if err != nil {
			return err
		}
		rows, err := controller.Categorize(ctx, p, pos, nil)
		if err != nil {
			return err
		}
		return writeCategorized(p, rows, *asJSON, env)
	}
	return fmt.Errorf("%w: unknown profile subcommand %q", errUsage, sub)
}

// checkProfiles prints every problem of every file and fails when there was any.
func checkProfiles(paths []string, asJSON bool, env Env) error {
	if len(paths) == 0 {
		return fmt.Errorf("%w: profile check takes FILE...", errUsage)
	}
	type problem struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	}
	type result struct {
		File     string    `json:"file"`
		OK       bool      `json:"ok"`
		Problems []problem `json:"problems"`
	}
	var results []result
	failed := 0
	for _, path := range paths {
		r := result{File: path, OK: true, Problems: []problem{}}
		p, err := isaprofiles.ReadFile(path)
		if err != nil {
			failed++
			r.OK = false
			var fe isaprofiles.FileErrors
			var se *isaprofiles.SyntaxError
			switch {
			case errors.As(err, &fe):
				for _, e := range fe {
					r.Problems = append(r.Problems, problem{e.Line, e.Msg})
				}
			case errors.As(err, &se):
				r.Problems = append(r.Problems, problem{se.Line, se.Msg})
			default:
				r.Problems = append(r.Problems, problem{0, err.Error()})
			}
			if !asJSON {
				for _, pr := range r.Problems {
					fmt.Fprintf(env.Stderr, "%s:%d: %s\n", path, pr.Line, pr.Message)
				}
			}
		} else if !asJSON {
			fmt.Fprintf(env.Stdout, "%s: ok (%q, %s)\n", path, p.Name, human.Count(len(p.Categories), "category", "categories"))
		}
		results = append(results, r)
	}
	if asJSON {
		if err := writeJSON(env.Stdout, results); err != nil {
			return err
		}
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %s %s errors", failed, human.Count(len(paths), "file", "files"), human.Noun(failed, "has", "have"))}
	}
	return nil
}

func listProfiles(ctx context.Context, profiles controller.Profiles, asJSON bool, env Env) error {
	list, err := profiles.List(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		type item struct {
			Name         string     `json:"name"`
			Architecture string     `json:"architecture"`
			Organization string     `json:"organization"`
			ISAs         []cost.ISA `json:"isas"`
			Categories   int        `json:"categories"`
			Origin       string     `json:"origin"`
		}
		items := make([]item, 0, len(list))
		for _, p := range list {
			items = append(items, item{p.Name, p.Architecture, p.Organization, p.ISAs, p.Categories, p.Origin})
		}
		return writeJSON(env.Stdout, items)
	}
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tARCHITECTURE\tORGANIZATION\tISAS\tCATEGORIES\tORIGIN")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", p.Name, p.Architecture, p.Organization, isaList(p.ISAs), p.Categories, p.Origin)
	}
	return tw.Flush()
}

func isaList(isas []cost.ISA) string {
	s := make([]string, len(isas))
	for i, isa := range isas {
		s[i] = string(isa)
	}
	return strings.Join(s, " ")
}

func showProfile(p *cost.Profile, env Env) error {
	w := env.Stdout
	fmt.Fprintf(w, "%s\n  architecture: %s\n  organization: %s\n  instruction sets: %s\n", termtext.Cell(p.Name), termtext.Cell(p.Architecture), termtext.Cell(p.Organization), isaList(p.ISAs))
	if !p.Reference.IsZero() {
		r := p.Reference
		fmt.Fprintf(w, "  reference: %g GHz, CPI %g, %g W, %.0f base instructions, %.0f base cache misses, %g nJ per memory access\n",
			r.FrequencyGHz, r.CPI, r.ProcessorPowerW, r.BaseInstructions, r.BaseCacheMisses, r.MemoryAccessEnergy)
	}
	tw := termtext.NewTable(w)
	fmt.Fprintln(tw, "\nCATEGORY\tCYCLES\tPOWER (mW)\tINSTRUCTIONS\tESTIMATED")
	for _, c := range append(append([]cost.Category(nil), p.Categories...), p.Undefined) {
		var est []string
		for _, ci := range c.Citations {
			if ci.Estimate && !slices.Contains(est, ci.Cost) {
				est = append(est, ci.Cost)
			}
		}
		fmt.Fprintf(tw, "%s\t%g\t%g\t%d\t%s\n", c.Name, c.Cycles, c.PowerMW, len(c.Instructions), strings.Join(est, ", "))
	}
	return tw.Flush()
}

func writeCategorized(p *cost.Profile, rows []controller.Categorized, asJSON bool, env Env) error {
	type row struct {
		ISA        cost.ISA `json:"isa"`
		Mnemonic   string   `json:"mnemonic"`
		Category   string   `json:"category"`
		Static     int64    `json:"static"`
		Executions *int64   `json:"executions"` // null when the logs had no Trace lines
	}
	var total, undefined int64
	hasExec := false
	out := make([]row, len(rows))
	for i, r := range rows {
		out[i] = row{ISA: r.Instruction.ISA, Mnemonic: r.Instruction.Mnemonic, Category: r.Category, Static: r.Static}
		if r.HasExec {
			n := r.Executions
			out[i].Executions = &n
			hasExec = true
		}
		total += r.Executions
		if r.Category == cost.UndefinedCategory {
			undefined += r.Executions
		}
	}
	if asJSON {
		return writeJSON(env.Stdout, map[string]any{
			"profile": p.Name, "instructions": out, "executions_known": hasExec,
			"total_executions": total, "undefined_executions": undefined,
		})
	}
	tw := termtext.NewTable(env.Stdout)
	fmt.Fprintln(tw, "MNEMONIC\tISA\t  EXECUTIONS\t    STATIC\tCATEGORY")
	for _, r := range out {
		exec := "-"
		if r.Executions != nil {
			exec = fmt.Sprint(*r.Executions)
		}
		fmt.Fprintf(tw, "%s\t%s\t%12s\t%10d\t%s\n", r.Mnemonic, r.ISA, exec, r.Static, r.Category)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d executed instructions under %q, %d of them in %s\n", total, p.Name, undefined, cost.UndefinedCategory)
	return nil
}

// profileJSON is the stable shape of `profile show --json`.
func profileJSON(p *cost.Profile) any {
	type cite struct {
		Cost     string `json:"cost"`
		Estimate bool   `json:"estimate"`
		Text     string `json:"text"`
	}
	type insn struct {
		ISA      cost.ISA `json:"isa"`
		Mnemonic string   `json:"mnemonic"`
	}
	type category struct {
		Name         string  `json:"name"`
		Cycles       float64 `json:"cycles"`
		PowerMW      float64 `json:"power_mw"`
		Instructions []insn  `json:"instructions"`
		Citations    []cite  `json:"citations"`
	}
	cites := func(cs []cost.Citation) []cite {
		out := []cite{}
		for _, c := range cs {
			out = append(out, cite{c.Cost, c.Estimate, c.Text})
		}
		return out
	}
	conv := func(c cost.Category) category {
		ins := []insn{}
		for _, in := range c.Instructions {
			ins = append(ins, insn{in.ISA, in.Mnemonic})
		}
		return category{c.Name, c.Cycles, c.PowerMW, ins, cites(c.Citations)}
	}
	cats := []category{}
	for _, c := range p.Categories {
		cats = append(cats, conv(c))
	}
	r := p.Reference
	return map[string]any{
		"name": p.Name, "architecture": p.Architecture, "organization": p.Organization,
		"isas": p.ISAs, "source": p.Source,
		"reference": map[string]float64{
			"frequency_ghz": r.FrequencyGHz, "cpi": r.CPI, "processor_power_w": r.ProcessorPowerW,
			"base_instructions": r.BaseInstructions, "base_cache_misses": r.BaseCacheMisses,
			"memory_access_energy_nj": r.MemoryAccessEnergy,
		},
		"reference_citations": cites(p.Citations),
		"categories":          cats,
		"undefined":           conv(p.Undefined),
	}
}

// profileStore opens the profiles of the workspace at path. Only import writes; the other
// subcommands read, so they neither migrate a workspace nor make one: without a workspace
// file they see the built-in profiles and profile files.
func profileStore(env Env, path string, write bool) (controller.Profiles, func(), error) {
	if _, err := os.Stat(path); !write && errors.Is(err, fs.ErrNotExist) {
		return controller.Profiles{}, func() {}, nil
	}
	ws, err := openDB(env, path, write)
	if err != nil {
		return controller.Profiles{}, nil, err
	}
	return ws.Profiles, func() { ws.Close() }, nil
}
