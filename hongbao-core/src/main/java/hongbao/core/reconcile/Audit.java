package hongbao.core.reconcile;

import java.util.List;

/** One more part of the books the reconciler checks, contributed by a feature. */
@FunctionalInterface
public interface Audit {

  /** Every discrepancy found, one line each; empty when the books agree. */
  List<String> discrepancies();
}
