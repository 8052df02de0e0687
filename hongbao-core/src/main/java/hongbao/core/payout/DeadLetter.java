package hongbao.core.payout;

/**
 * A payout task that was given up on, for the reconciler to report.
 *
 * @param reason why: the ledger's refusal, or too many deliveries
 */
public record DeadLetter(PayoutTask task, String reason) {}
