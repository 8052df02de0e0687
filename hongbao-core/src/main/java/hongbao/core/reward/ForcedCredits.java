package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Forced credit: the CASH rewards of a user that are LEGAL and not yet credited — from the tokens
 * the client brings and from the server's own copies — are credited at once, bypassing the queue,
 * its rate limits and fuses (a withdrawal must not wait for them). It goes through the same {@link
 * RewardService} as the queued event, so whichever comes second finds the reward done. UNKNOWN and
 * ILLEGAL tokens are ignored; other kinds are left to their queue (a wallet holds cash only).
 */
public final class ForcedCredits {

  /** Tokens looked at per call: the client's and the server's copies. */
  public static final int MAX_TOKENS = 500;

  private final RewardTokens tokens;
  private final TokenStore tokenStore;
  private final TokenVerifier verifier;
  private final RewardTypes types;
  private final RewardService service;
  private final RewardMetrics metrics;

  public ForcedCredits(
      RewardTokens tokens,
      TokenStore tokenStore,
      TokenVerifier verifier,
      RewardTypes types,
      RewardService service,
      RewardMetrics metrics) {
    this.tokens = tokens;
    this.tokenStore = tokenStore;
    this.verifier = verifier;
    this.types = types;
    this.service = service;
    this.metrics = metrics;
  }

  /** What a forced credit did: how many rewards and how much cash it credited now. */
  public record Result(int credited, Amount amount) {}

  /**
   * Credits every LEGAL, uncredited CASH reward of {@code userId} now.
   *
   * @throws IllegalArgumentException for more than {@link #MAX_TOKENS} client tokens
   */
  public Result creditNow(String userId, List<String> clientTokens) {
    if (clientTokens.size() > MAX_TOKENS) {
      throw new IllegalArgumentException("at most " + MAX_TOKENS + " tokens per forced credit");
    }
    Map<String, Reward> candidates = new LinkedHashMap<>();
    for (String token : clientTokens) {
      tokens.open(token, userId).ifPresent(r -> candidates.putIfAbsent(r.tradeNo(), r));
    }
    for (String token : tokenStore.pending(userId, MAX_TOKENS)) {
      tokens.open(token, userId).ifPresent(r -> candidates.putIfAbsent(r.tradeNo(), r));
    }
    int credited = 0;
    Amount amount = Amount.ZERO;
    for (Reward reward : candidates.values()) {
      RewardType type = types.find(reward.type()).orElse(null);
      if (type == null || type.kind() != RewardKind.CASH) {
        continue;
      }
      TokenVerifier.Verification verdict = verifier.judge(reward);
      if (verdict.validity() != Validity.LEGAL || verdict.credited()) {
        continue;
      }
      if (service.credit(reward, type) instanceof CreditOutcome.Credited c && c.now()) {
        credited++;
        amount = amount.plus(reward.amount());
        metrics.forcedCredit();
      }
    }
    return new Result(credited, amount);
  }
}
