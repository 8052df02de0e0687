package hongbao.core.reward;

import java.util.List;

/**
 * Port: the failure stream — rewards an issuer refused for good, and events that could not be
 * handled after many deliveries. The reconciler reports every entry until an operator settles it
 * ({@link RewardFailures}).
 */
public interface FailureLog {

  /** One entry: its id in the stream, the reward given up on, and why. */
  record Failure(String id, Reward reward, String reason) {}

  void fail(Reward reward, String reason);

  /** Entries, oldest first, one line each, at most {@code max}. */
  List<String> entries(int max);

  /** The tradeNos in the stream, at most {@code max}. */
  List<String> tradeNos(int max);

  /** Entries, oldest first, at most {@code max}. */
  List<Failure> failures(int max);

  /**
   * Deletes the one entry {@code id}: not every entry of its reward, since a retried reward may
   * already have failed again (see {@link RewardFailures}).
   *
   * @return whether it was there
   */
  boolean forget(String id);
}
