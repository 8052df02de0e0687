package hongbao.core.campaign;

/**
 * Port: issues a won prize through the reward pipeline under its tradeNo (idempotent: issuing a
 * tradeNo again answers the first token) and returns the client's token.
 */
@FunctionalInterface
public interface PrizeIssuer {
  String issue(Campaign campaign, Round round, String userId, String tradeNo, PrizeLine prize);
}
