// Package cost is the emulator run's domain: basic blocks and their executions, instruction
// sets and categories, ISA cost profiles, and the reports and estimates (cycles, time, power,
// energy) made from them, as seed 000's analysis GUI shows them.
package cost
