package hongbao.core.ledger;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import java.util.Optional;
import java.util.function.Function;

/** Credits a wallet from the system account, once per idempotency key. */
public final class TopUpService {

  public static final String ENDPOINT = "topup";
  public static final long MAX_TOP_UP_FEN = 100_000_000_000L;

  private final Ledger ledger;

  public TopUpService(Ledger ledger) {
    this.ledger = ledger;
  }

  public StoredAnswer topUp(
      String userId, long amountFen, IdempotencyKey key, Function<Amount, StoredAnswer> render) {
    if (amountFen < 1 || amountFen > MAX_TOP_UP_FEN) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT, "amount must be between 1 and " + MAX_TOP_UP_FEN + " fen");
    }
    Optional<StoredAnswer> earlier = Idempotency.replay(ledger, key);
    if (earlier.isPresent()) {
      return earlier.get();
    }
    try {
      return ledger.topUp(userId, Amount.fen(amountFen), key, render);
    } catch (IdempotencyRaceException race) {
      return Idempotency.replay(ledger, key).orElseThrow(() -> race);
    }
  }
}
