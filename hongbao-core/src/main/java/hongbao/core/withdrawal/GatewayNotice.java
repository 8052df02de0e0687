package hongbao.core.withdrawal;

import hongbao.core.Invariants;

/**
 * An asynchronous notice from the gateway (a callback) that an out-trade-no was settled. It may
 * arrive twice, late, or before the transfer's own answer; applying it is idempotent.
 *
 * @param answer a {@link QueryAnswer.Success} or a {@link QueryAnswer.Fail}
 */
public record GatewayNotice(String outTradeNo, QueryAnswer answer) {

  public GatewayNotice {
    Invariants.check(
        answer instanceof QueryAnswer.Success || answer instanceof QueryAnswer.Fail,
        "a notice settles; %s does not",
        answer);
  }
}
