package hongbao.core.ledger;

import hongbao.core.money.Amount;
import java.util.List;

/** A user's wallet as the ledger has posted it, with its newest entries first. */
public record Wallet(String userId, Amount balance, List<WalletEntry> entries) {

  public Wallet {
    entries = List.copyOf(entries);
  }
}
