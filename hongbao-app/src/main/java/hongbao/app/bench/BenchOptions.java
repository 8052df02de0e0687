package hongbao.app.bench;

/** The scenario-shaping options of one run. */
record BenchOptions(int shares, int packets, int duplicates) {}
