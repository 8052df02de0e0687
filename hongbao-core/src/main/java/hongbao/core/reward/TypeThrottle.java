package hongbao.core.reward;

/**
 * Port: the per-type rate limit shared by every instance, a token bucket of {@code burst} tokens
 * refilled at {@code ratePerSecond}.
 */
public interface TypeThrottle {

  /**
   * Takes {@code permits} tokens of the type's bucket.
   *
   * @return 0 when taken; otherwise how many milliseconds until they could be (nothing taken)
   */
  long acquire(RewardType type, int permits);
}
