package hongbao.core.payout;

/**
 * The ledger's books refuse a payout: the packet has already paid as many grabs as it has shares,
 * or its escrow holds less than the share. Not an outage and not retried: the books only ever
 * shrink, so a refused task is dead-lettered at once and reported. It happens when the grab store
 * lost acknowledged writes and handed a share out twice.
 */
public final class PayoutRefused extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PayoutRefused(String message) {
    super(message);
  }
}
