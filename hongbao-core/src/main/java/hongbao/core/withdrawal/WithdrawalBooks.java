package hongbao.core.withdrawal;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Port: withdrawals beside the ledger postings that moved their money, for reconciliation. */
public interface WithdrawalBooks {

  /**
   * Withdrawals created or moved (settled, say) at or after {@code since}, by id, at most {@code
   * limit}: one created before and settled since is compared with the statement of its settle day.
   */
  List<Booked> since(Instant since, int limit);

  Optional<Booked> byOutTradeNo(String outTradeNo);

  /**
   * Withdrawals not yet settled (REQUESTED, SENT or UNKNOWN) created before {@code before}, by id,
   * at most {@code limit}: the audit's window holds the newer ones.
   */
  List<Booked> unsettledBefore(Instant before, int limit);

  /**
   * A withdrawal and what the ledger holds for it.
   *
   * @param debited moved from the wallet into flight ({@code withdraw:<id>})
   * @param paid moved from flight to the gateway ({@code withdraw-paid:<id>})
   * @param returned moved from flight back to the wallet ({@code withdraw-return:<id>})
   * @param inFlight the balance of the withdrawal's in-flight account
   */
  record Booked(
      Withdrawal withdrawal, Amount debited, Amount paid, Amount returned, Amount inFlight) {}
}
