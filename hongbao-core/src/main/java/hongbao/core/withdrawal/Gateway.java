package hongbao.core.withdrawal;

import hongbao.core.money.Amount;

/**
 * Port: a payment gateway that pays money out of the service, modelled on the transfer APIs of real
 * providers. The out-trade-no is the gateway's idempotency key: a second transfer with the same
 * number never pays a second time. Transport faults are answers here ({@code NoAnswer}), not
 * exceptions, because for money they mean "it may or may not have happened".
 */
public interface Gateway {

  /** Asks the gateway to pay {@code amount} to {@code userId} under {@code outTradeNo}. */
  TransferAnswer transfer(String outTradeNo, String userId, Amount amount);

  /** What the gateway knows about {@code outTradeNo}. */
  QueryAnswer query(String outTradeNo);
}
