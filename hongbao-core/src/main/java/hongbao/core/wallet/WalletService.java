package hongbao.core.wallet;

import hongbao.core.grab.GrabStore;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.Wallet;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import java.util.Map;

/**
 * A wallet with what is on its way: the ledger's posted balance plus the shares the user grabbed
 * that the payout workers have not paid yet. The store's pending index is cross-checked against the
 * ledger, in the same snapshot as the balance, so a share is counted exactly once: as paid or as
 * pending.
 */
public final class WalletService {

  private final Ledger ledger;
  private final GrabStore store;

  public WalletService(Ledger ledger, GrabStore store) {
    this.ledger = ledger;
    this.store = store;
  }

  public WalletView wallet(String userId, int limit) {
    // Pending first: a share leaves the index only after the ledger has it, so one paid after this
    // read is in the ledger's snapshot, balance and paid set alike, and stays out of pendingAmount.
    // Read the other way round, a share paid between the reads would be in neither.
    Map<Long, Amount> pending = store.pendingOf(userId);
    WalletSnapshot snapshot = ledger.wallet(userId, limit, pending.keySet());
    Amount pendingAmount =
        pending.entrySet().stream()
            .filter(e -> !snapshot.paidPackets().contains(e.getKey()))
            .map(Map.Entry::getValue)
            .reduce(Amount.ZERO, Amount::plus);
    return new WalletView(snapshot.wallet(), pendingAmount);
  }

  /** A wallet and the amount grabbed but not yet paid into it. */
  public record WalletView(Wallet wallet, Amount pendingAmount) {}
}
