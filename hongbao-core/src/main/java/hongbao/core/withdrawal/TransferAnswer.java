package hongbao.core.withdrawal;

import hongbao.core.money.Amount;

/** The gateway's answer to a transfer request. */
public sealed interface TransferAnswer {

  /** Paid. {@code amount} is what the gateway paid under the out-trade-no. */
  record Success(String gatewayRef, Amount amount) implements TransferAnswer {}

  /**
   * Not paid. A retryable refusal (a limit, a busy payee bank) leaves nothing at the gateway and
   * may be tried again under the same out-trade-no; a final one closes the out-trade-no for good.
   */
  record Fail(String reason, boolean retryable) implements TransferAnswer {}

  /** The gateway failed and does not know whether it paid: ask before anything else. */
  record SystemError(String message) implements TransferAnswer {}

  /** No answer: a timeout or a broken connection. The request may have been paid. */
  record NoAnswer(String cause) implements TransferAnswer {}
}
