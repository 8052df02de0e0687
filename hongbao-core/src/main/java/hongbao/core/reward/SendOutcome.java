package hongbao.core.reward;

/** What sending a reward came to. Rejections (invalid, over budget, conflict) are exceptions. */
public sealed interface SendOutcome {

  String tradeNo();

  /**
   * On a queue (or held for one): it will be credited exactly once. A replay of an asynchronous
   * send answers this too, credited or not.
   */
  record Accepted(String tradeNo, String token) implements SendOutcome {}

  /** Credited before the answer: a synchronous send, or a replay of one that was credited. */
  record Credited(String tradeNo, String token) implements SendOutcome {}

  /** Synchronous mode only: the issuer refused; the budget was released. */
  record IssuerFailed(String tradeNo, String reason) implements SendOutcome {}
}
