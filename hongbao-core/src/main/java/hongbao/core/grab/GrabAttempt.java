package hongbao.core.grab;

import java.time.Instant;

/**
 * One user's attempt at one packet.
 *
 * @param passwordKey the normalised phrase the user typed, or null
 * @param random a uniform integer in [0, 2^31) from which a split-at-grab packet cuts the share;
 *     unused by pre-split packets
 */
public record GrabAttempt(
    long packetId, String userId, String passwordKey, Instant at, long random) {

  /** An attempt on a pre-split packet, which needs no random value. */
  public GrabAttempt(long packetId, String userId, String passwordKey, Instant at) {
    this(packetId, userId, passwordKey, at, 0);
  }
}
