package drg

// MetricNameKey is the metadata attribute in which TAU records a profile's
// metric; TAU's loader takes the metric name from it and never stores it.
const MetricNameKey = "Metric Name"

// aggregateMetadata splits per-thread attributes into trial-level (common)
// and per-thread (uncommon) ones with TAU's aggregateMetaData rule. Threads
// are taken in order; the common set starts as a copy of the first thread's
// attributes; a key is dropped from it (and becomes per-thread) as soon as
// some thread has it with another value, has it while the common set lacks
// it, or has it as a context attribute. A key a thread simply lacks stays
// common, which is why rank 0's attributes become the trial's. Common keys
// are then removed from every thread.
func aggregateMetadata(threads []map[string]string, context []map[string]bool) (common map[string]string) {
	common = map[string]string{}
	if len(threads) == 0 {
		return common
	}
	for k, v := range threads[0] {
		common[k] = v
	}
	uncommon := map[string]bool{}
	for i, m := range threads {
		for k, v := range m {
			if uncommon[k] {
				continue
			}
			cv, ok := common[k]
			if !ok || cv != v || context[i][k] {
				delete(common, k)
				uncommon[k] = true
			}
		}
	}
	for _, m := range threads {
		for k := range common {
			delete(m, k)
		}
	}
	return common
}
