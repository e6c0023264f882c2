// Package ui is what the workbench's windows are built from: tables that sort and save CSV,
// chart panels drawn off the UI goroutine, path and progress dialogs, problems told in words,
// background work handed back to the UI goroutine, menus and keys from one list of commands, the
// top bar's layout, and the widget map that layout and end-to-end tests read. Host is what the
// tabs of one kind of run (view/methods, view/heap) need of the window that shows them.
package ui
