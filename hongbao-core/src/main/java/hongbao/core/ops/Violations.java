package hongbao.core.ops;

import java.util.ArrayList;
import java.util.List;

/**
 * Invariant violations that stopped a background loop, kept for the reconciler to report until the
 * process restarts: a bug is said loudly, in the log, in a metric and here. Thread-safe; bounded.
 */
public final class Violations {

  private static final int KEPT_MAX = 100;

  private final List<String> seen = new ArrayList<>();

  public synchronized void record(String where, Throwable violation) {
    if (seen.size() < KEPT_MAX) {
      seen.add(where + ": " + violation.getMessage());
    }
  }

  public synchronized List<String> all() {
    return List.copyOf(seen);
  }
}
