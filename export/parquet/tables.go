// Package parquet writes the workspace's aggregates as Hive-partitioned Parquet
// (docs/parquet.md): DIR/<table>/kind=<kind>/run=<run>/part-0.parquet, one file per run and
// table, so DuckDB, Spark, pandas or Polars ask one question across thousands of runs. This
// file holds the tables' rows: their fields are the columns, in order, and docs/parquet.md's
// Schema section documents each (TestSchemaDocumented keeps the two equal).
package parquet

import (
	pq "github.com/parquet-go/parquet-go"
)

// SchemaVersion is every row's schema_version: raised when a column changes meaning, type or
// name, so a query over files of two versions can tell them apart.
const SchemaVersion int32 = 1

// The tables' names: the first folder under the export's DIR.
const (
	TableRuns             = "runs"
	TableEmulatorCosts    = "emulator_costs"
	TableEmulatorSyscalls = "emulator_syscalls"
	TableMethodTimes      = "method_times"
	TableMethodCalls      = "method_calls"
	TableHeapLogRows      = "heap_log_rows"
	TableDumpClasses      = "dump_classes"
	TableSampleStacks     = "sample_stacks"
)

// Table is a table's name and its Parquet schema, read from its row type.
type Table struct {
	Name   string
	Schema *pq.Schema
}

// Tables lists every table with the schema its files have, in the order docs/parquet.md
// documents them.
func Tables() []Table {
	return []Table{
		{TableRuns, pq.SchemaOf(RunRow{})},
		{TableEmulatorCosts, pq.SchemaOf(EmulatorCostRow{})},
		{TableEmulatorSyscalls, pq.SchemaOf(EmulatorSyscallRow{})},
		{TableMethodTimes, pq.SchemaOf(MethodTimeRow{})},
		{TableMethodCalls, pq.SchemaOf(MethodCallRow{})},
		{TableHeapLogRows, pq.SchemaOf(HeapLogRow{})},
		{TableDumpClasses, pq.SchemaOf(DumpClassRow{})},
		{TableSampleStacks, pq.SchemaOf(SampleStackRow{})},
	}
}

// Head is the three columns every row starts with, so a file read alone says what it holds:
// each row type embeds it first (the Parquet library flattens an embedded struct's fields).
type Head struct {
	SchemaVersion int32  `parquet:"schema_version"`
	Run           string `parquet:"run"`
	Kind          string `parquet:"kind"`
}

// NewHead is the head of a row of run, of kind, at this SchemaVersion.
func NewHead(run, kind string) Head { return Head{SchemaVersion, run, kind} }

// RunRow is one row of runs: a run as `androprof runs --json` lists it.
type RunRow struct {
	Head
	Source       string `parquet:"source"`
	ImportedAt   string `parquet:"imported_at"`
	Processes    *int64 `parquet:"processes,optional"` // emulator runs only
	Blocks       *int64 `parquet:"blocks,optional"`
	Instructions *int64 `parquet:"instructions,optional"`
}

// EmulatorCostRow is one row of `report --by B --json` of an emulator run.
type EmulatorCostRow struct {
	Head
	Profile          string   `parquet:"profile"`
	FrequencyGHz     float64  `parquet:"frequency_ghz"`
	FrequencyAssumed bool     `parquet:"frequency_assumed"`
	ReportBy         string   `parquet:"report_by"`
	Key              string   `parquet:"key"`
	PID              *int32   `parquet:"pid,optional"`
	BlockID          *int64   `parquet:"block_id,optional"`
	Category         *string  `parquet:"category,optional"`
	Image            *string  `parquet:"image,optional"`
	ImageKind        *string  `parquet:"image_kind,optional"`
	Instructions     int64    `parquet:"instructions"`
	BlocksExecuted   int64    `parquet:"blocks_executed"`
	Cycles           float64  `parquet:"cycles"`
	TimeS            float64  `parquet:"time_s"`
	EnergyJ          *float64 `parquet:"energy_j,optional"` // nil: the profile knows no power for it
}

// EmulatorSyscallRow is one row of `report --by syscall --per-thread --json`.
type EmulatorSyscallRow struct {
	Head
	PID                int32  `parquet:"pid"`
	TID                int32  `parquet:"tid"`
	Number             int64  `parquet:"number"`
	Name               string `parquet:"name"`
	Calls              int64  `parquet:"calls"`
	InstructionsBefore int64  `parquet:"instructions_before"`
}

// MethodTimeRow is one row of `report --by method --pid TID --json` of a method trace; a time
// of a clock the trace did not record is nil.
type MethodTimeRow struct {
	Head
	Clock          string `parquet:"clock"`
	TID            int32  `parquet:"tid"`
	Thread         string `parquet:"thread"`
	MethodID       uint64 `parquet:"method_id"`
	Method         string `parquet:"method"`
	Name           string `parquet:"name"`
	Package        string `parquet:"package"`
	InclCPUus      *int64 `parquet:"incl_cpu_us,optional"`
	ExclCPUus      *int64 `parquet:"excl_cpu_us,optional"`
	InclRealus     *int64 `parquet:"incl_real_us,optional"`
	ExclRealus     *int64 `parquet:"excl_real_us,optional"`
	Calls          int64  `parquet:"calls"`
	RecursiveCalls int64  `parquet:"recursive_calls"`
}

// MethodCallRow is one caller→callee edge of a thread, with the parts of it that were
// recursive on either side.
type MethodCallRow struct {
	Head
	Clock              string `parquet:"clock"`
	TID                int32  `parquet:"tid"`
	CallerID           uint64 `parquet:"caller_id"`
	Caller             string `parquet:"caller"`
	CalleeID           uint64 `parquet:"callee_id"`
	Callee             string `parquet:"callee"`
	Calls              int64  `parquet:"calls"`
	InclCPUus          *int64 `parquet:"incl_cpu_us,optional"`
	InclRealus         *int64 `parquet:"incl_real_us,optional"`
	CallerNestedCalls  int64  `parquet:"caller_nested_calls"`
	CallerNestedCPUus  *int64 `parquet:"caller_nested_cpu_us,optional"`
	CallerNestedRealus *int64 `parquet:"caller_nested_real_us,optional"`
	CalleeNestedCalls  int64  `parquet:"callee_nested_calls"`
	CalleeNestedCPUus  *int64 `parquet:"callee_nested_cpu_us,optional"`
	CalleeNestedRealus *int64 `parquet:"callee_nested_real_us,optional"`
}

// HeapLogRow is one row of `report --by cohort|thread|class|size --json` of a heap log.
type HeapLogRow struct {
	Head
	CohortBytes      int64    `parquet:"cohort_bytes"`
	Scope            string   `parquet:"scope"`
	Key              int64    `parquet:"key"`
	Name             string   `parquet:"name"`
	IsArray          bool     `parquet:"is_array"`
	LiveObjects      int64    `parquet:"live_objects"`
	LiveBytes        int64    `parquet:"live_bytes"`
	TotalObjects     int64    `parquet:"total_objects"`
	TotalBytes       int64    `parquet:"total_bytes"`
	ArrayObjects     int64    `parquet:"array_objects"`
	ArrayBytes       int64    `parquet:"array_bytes"`
	DiedObjects      int64    `parquet:"died_objects"`
	AvgLifetimeBytes *float64 `parquet:"avg_lifetime_bytes,optional"` // nil: none died
}

// DumpClassRow is a class of a heap dump, of one heap or (Heap nil) of every heap: what
// `report --by class` and `report --by retained` say of it.
type DumpClassRow struct {
	Head
	Heap               *string `parquet:"heap,optional"`
	Class              string  `parquet:"class"`
	Instances          int64   `parquet:"instances"`
	InstanceBytes      int64   `parquet:"instance_bytes"`
	Arrays             int64   `parquet:"arrays"`
	ArrayBytes         int64   `parquet:"array_bytes"`
	ReachableInstances *int64  `parquet:"reachable_instances,optional"` // nil: no retention for it
	ShallowBytes       *int64  `parquet:"shallow_bytes,optional"`
	RetainedBytes      *int64  `parquet:"retained_bytes,optional"`
}

// SampleStackRow is one folded stack of a sampled run's thread and its samples.
type SampleStackRow struct {
	Head
	PID     int32  `parquet:"pid"`
	TID     int32  `parquet:"tid"`
	Thread  string `parquet:"thread"`
	Stack   string `parquet:"stack"`
	Leaf    string `parquet:"leaf"`
	Depth   int32  `parquet:"depth"`
	Samples int64  `parquet:"samples"`
}
