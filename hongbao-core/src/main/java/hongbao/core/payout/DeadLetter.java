package hongbao.core.payout;

/**
 * A payout task that was given up on, for the reconciler to report.
 *
 * @param reason why: the ledger's refusal, or too many deliveries
 */
public record DeadLetter(PayoutTask task, String reason) {

  /** How an operator names it to {@link PayoutQueue#redrive}: its place in the dead letters. */
  public String id() {
    return task.deliveryTag();
  }
}
