package hongbao.core.withdrawal;

import hongbao.core.money.Amount;

/** The gateway's answer to "what became of this out-trade-no?". */
public sealed interface QueryAnswer {

  /** Paid; {@code amount} as the gateway paid it. */
  record Success(String gatewayRef, Amount amount) implements QueryAnswer {}

  /** Finally refused: the out-trade-no will never be paid. */
  record Fail(String reason) implements QueryAnswer {}

  /** A request is being processed; its outcome comes later. */
  record Processing() implements QueryAnswer {}

  /** The gateway has no request under this number: only now may it be sent again. */
  record NotFound() implements QueryAnswer {}

  /** The query itself failed (system error, timeout): nothing learned. */
  record NoAnswer(String cause) implements QueryAnswer {}
}
