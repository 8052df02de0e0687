package hongbao.sdk;

/**
 * The answer to a sent bonus: the encrypted token to hand to the client (null when FAILED), and
 * where the reward stands. A FAILED bonus (synchronous mode only) reserved nothing in the end.
 */
public record BonusReceipt(String tradeNo, String token, Status status, String failure) {

  public enum Status {
    /** On a queue: it will be credited exactly once. */
    ACCEPTED,
    /** Credited already. */
    CREDITED,
    /** The issuer refused it (synchronous mode); the budget was released. */
    FAILED
  }
}
