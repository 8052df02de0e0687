package hongbao.core.ledger;

import java.util.Set;

/**
 * A wallet and, read from the same snapshot, which of the packets asked about have already paid it
 * a share. Because both come from one moment, a share paid while the ledger is being read is either
 * in the balance and among {@code paidPackets}, or in neither: never counted as paid in one and
 * unpaid in the other.
 */
public record WalletSnapshot(Wallet wallet, Set<Long> paidPackets) {

  public WalletSnapshot {
    paidPackets = Set.copyOf(paidPackets);
  }
}
