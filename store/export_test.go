package store

// SetBeforeTable installs a hook SaveTrial calls before writing each table
// (nil removes it); tests use it to cancel a save at a chosen table.
func SetBeforeTable(f func(table string)) { beforeTable = f }
