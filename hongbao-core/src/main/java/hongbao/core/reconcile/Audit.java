package hongbao.core.reconcile;

import java.util.List;

/**
 * A further check the reconciler runs after packets and accounts (withdrawals against the payment
 * gateway, ...): one line per discrepancy, none when the books agree.
 */
public interface Audit {

  List<String> discrepancies();
}
