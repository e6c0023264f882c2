// Package layers classifies code into the vertical layers of seed 004 (the application's Java
// code, Java libraries, the VM, native libraries, the kernel) from an image and symbol name.
package layers
