package controller

import "context"

// DemoCategoriesLeftOpen are the categories the demo takes out of the Cortex-A8 profile, so
// the editor opens the way a profile author sees it mid-work: the most executed uncategorised
// instructions on top.
var DemoCategoriesLeftOpen = []string{"Load", "Store", "Conditional branch"}

// DemoEditor builds the editor state that a first start and the screenshot tour show: the
// built-in Cortex-A8 profile with a few categories still to do, and the execution counts of a
// real QEMU log.
func DemoEditor(ctx context.Context, logPath string) (*Editor, error) {
	e := NewEditor()
	if err := e.OpenBuiltin("cortex-a8"); err != nil {
		return nil, err
	}
	e.profile.Name = "Cortex-A8 (demo, in progress)"
	for _, c := range DemoCategoriesLeftOpen {
		if err := e.DeleteCategory(c); err != nil {
			return nil, err
		}
	}
	if err := e.ImportLogs(ctx, []string{logPath}, nil); err != nil {
		return nil, err
	}
	return e, nil
}
