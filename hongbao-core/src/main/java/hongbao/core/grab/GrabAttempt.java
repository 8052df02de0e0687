package hongbao.core.grab;

import java.time.Instant;

/**
 * One user's attempt at one packet.
 *
 * @param passwordKey the normalised phrase the user typed, or null
 */
public record GrabAttempt(long packetId, String userId, String passwordKey, Instant at) {}
