package report

// Asset returns the bytes of one file the reports ship in their assets/
// folder ("echarts.min.js", "LICENSE", "NOTICE", "SOURCE.md"), for pages
// written outside Write (the live page of watch).
func Asset(name string) ([]byte, error) { return assets.ReadFile(assetsDir + name) }
