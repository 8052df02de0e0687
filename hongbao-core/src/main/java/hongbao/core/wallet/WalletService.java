package hongbao.core.wallet;

import hongbao.core.grab.GrabStore;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.Wallet;
import hongbao.core.money.Amount;
import hongbao.core.packet.PacketStore;
import java.util.Map;
import java.util.Set;

/**
 * A wallet with what is on its way: the ledger's posted balance plus the shares the user grabbed
 * that the payout workers have not paid yet. The store's pending index is cross-checked against the
 * ledger so a share is never counted both as paid and as pending. One paid in the instant between
 * the balance read and that cross-check is in neither for this one read: the two are separate
 * queries, not one snapshot.
 */
public final class WalletService {

  private final Ledger ledger;
  private final GrabStore store;
  private final PacketStore packets;

  public WalletService(Ledger ledger, GrabStore store, PacketStore packets) {
    this.ledger = ledger;
    this.store = store;
    this.packets = packets;
  }

  public WalletView wallet(String userId, int limit) {
    // Pending first: a share leaves the index only after the ledger has it, so one paid between
    // the reads is in the balance, and the cross-check below (read after the balance) keeps it
    // out of pendingAmount. Read the other way round, it could be in neither.
    Map<Long, Amount> pending = store.pendingOf(userId);
    Wallet wallet = ledger.wallet(userId, limit);
    Set<Long> alreadyPaid =
        pending.isEmpty() ? Set.of() : packets.paidAmong(userId, pending.keySet());
    Amount pendingAmount =
        pending.entrySet().stream()
            .filter(e -> !alreadyPaid.contains(e.getKey()))
            .map(Map.Entry::getValue)
            .reduce(Amount.ZERO, Amount::plus);
    return new WalletView(wallet, pendingAmount);
  }

  /** A wallet and the amount grabbed but not yet paid into it. */
  public record WalletView(Wallet wallet, Amount pendingAmount) {}
}
