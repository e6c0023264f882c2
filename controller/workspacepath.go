package controller

// Path is the workspace database's file, "" without one: the windows remember what is per
// workspace (the run last shown) under it, so another workspace does not open on a run it
// does not have.
func (w *Workspace) Path() string {
	if p, ok := w.store.(interface{ Path() string }); ok {
		return p.Path()
	}
	return ""
}
