package hongbao.core.reward;

/** What crediting one reward came to. Outages are exceptions (retried); these are final. */
public sealed interface CreditOutcome {

  /** Credited; {@code now} is false when an earlier delivery or a forced credit did it. */
  record Credited(boolean now) implements CreditOutcome {}

  /** The issuer refused it for good (or refused it before). */
  record Refused(String reason) implements CreditOutcome {}

  /** The tradeNo is in the book with another request: never issued twice. */
  record Conflict() implements CreditOutcome {}
}
