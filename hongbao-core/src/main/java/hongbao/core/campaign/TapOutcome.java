package hongbao.core.campaign;

import java.time.Instant;

/** What a tap came to. All are 200 answers except {@link RateLimited} (429). */
public sealed interface TapOutcome {

  /** A prize, issued through the reward pipeline; {@code token} is the client's receipt. */
  record Won(String tradeNo, String type, long amount, String token) implements TapOutcome {}

  record Missed() implements TapOutcome {}

  record NotStarted(Instant nextRoundAt) implements TapOutcome {}

  record Ended() implements TapOutcome {}

  record LimitReached() implements TapOutcome {}

  record RateLimited() implements TapOutcome {}

  TapOutcome MISSED = new Missed();
  TapOutcome ENDED = new Ended();
  TapOutcome LIMIT_REACHED = new LimitReached();
  TapOutcome RATE_LIMITED = new RateLimited();
}
