package hongbao.core.reward;

import java.util.Optional;

/**
 * Tells what a client's token is worth: ILLEGAL if it does not open for the caller, UNKNOWN if it
 * opens but the server has no record of it (neither a token copy nor a row in the reward book),
 * LEGAL otherwise — credited or not. An UNKNOWN token is never credited: the copy may only be
 * missing because a write failed, but a token the server cannot vouch for is not money.
 */
public final class TokenVerifier {

  private final RewardTokens tokens;
  private final TokenStore tokenStore;
  private final RewardBook book;
  private final RewardMetrics metrics;

  public TokenVerifier(
      RewardTokens tokens, TokenStore tokenStore, RewardBook book, RewardMetrics metrics) {
    this.tokens = tokens;
    this.tokenStore = tokenStore;
    this.book = book;
    this.metrics = metrics;
  }

  /** A verdict; {@code reward} is null for an ILLEGAL token. */
  public record Verification(Validity validity, Reward reward, boolean credited) {}

  public Verification verify(String token, String callerId, boolean admin) {
    Optional<Reward> opened = admin ? tokens.openAny(token) : tokens.open(token, callerId);
    Verification verdict =
        opened.map(this::judge).orElse(new Verification(Validity.ILLEGAL, null, false));
    metrics.verified(verdict.validity());
    return verdict;
  }

  /** The verdict on a token that opened. */
  Verification judge(Reward reward) {
    // The copy is asked for before the book: crediting writes the row first and drops the copy
    // after, so a reward credited between the two questions is found in the book. Asked the
    // other way round, it was in neither (seen on the cluster): a LEGAL token judged UNKNOWN.
    boolean held = tokenStore.holds(reward);
    Optional<RewardRecord> record = book.find(reward.tradeNo());
    if (record.isPresent()) {
      boolean same = record.get().digest().equals(reward.digest());
      return same
          ? new Verification(
              Validity.LEGAL, reward, record.get().status() == RewardRecord.Status.CREDITED)
          : new Verification(Validity.UNKNOWN, reward, false);
    }
    return held
        ? new Verification(Validity.LEGAL, reward, false)
        : new Verification(Validity.UNKNOWN, reward, false);
  }
}
