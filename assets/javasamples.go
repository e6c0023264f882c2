package assets

import "embed"

// JavaSamples holds the Java sample workloads (samples/java/*.java, package demo) that
// `androprof heap` and the demo maker compile and run under the heap agent (package jvm).
//
//go:embed samples/java/*.java
var JavaSamples embed.FS
