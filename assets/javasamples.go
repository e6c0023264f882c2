package assets

import "embed"

// JavaSamples holds the Java sample workloads (samples/java/*.java, package demo) that
// `androprof heap` and the demo maker compile and run under the heap agent (package jvm), and
// below samples/java/android the few Android classes demo.Leaks stands on.
//
//go:embed samples/java/*.java samples/java/android
var JavaSamples embed.FS
