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
 * ledger so a share is never counted both as paid and as pending.
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
    Wallet wallet = ledger.wallet(userId, limit);
    Map<Long, Amount> pending = store.pendingOf(userId);
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
