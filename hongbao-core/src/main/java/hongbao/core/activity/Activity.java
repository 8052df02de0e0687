package hongbao.core.activity;

import java.time.Instant;
import java.util.Objects;

/**
 * A set of packets that counts every user's grabs across all of them: nobody grabs more than {@code
 * maxGrabsPerUser} shares of the activity's packets, however many there are.
 */
public record Activity(
    long id, String name, int maxGrabsPerUser, String createdBy, Instant createdAt) {

  public Activity {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
