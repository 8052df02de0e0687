package hongbao.core.reconcile;

import java.util.List;

/** The reconciler's verdict: every discrepancy found, one line each. */
public record Reconciliation(int packetsChecked, List<String> discrepancies) {

  public Reconciliation {
    discrepancies = List.copyOf(discrepancies);
  }

  public boolean ok() {
    return discrepancies.isEmpty();
  }
}
