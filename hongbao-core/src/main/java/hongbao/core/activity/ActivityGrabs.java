package hongbao.core.activity;

import hongbao.core.Invariants;
import java.time.Instant;

/**
 * Keeps the fast store's activity counts whole. The ledger is the truth: it refuses to pay a user
 * more grabs of an activity than the limit, so its paid grabs are a floor of the true counts. When
 * the store has lost an activity's counts (or may have lost part of them, after a restart), they
 * are rebuilt from those paid grabs before any packet of the activity is sold again, so that a user
 * cannot grab past the limit on the strength of a forgotten count.
 */
public final class ActivityGrabs {

  private final ActivityStore activities;
  private final ActivityCounts counts;

  public ActivityGrabs(ActivityStore activities, ActivityCounts counts) {
    this.activities = activities;
    this.counts = counts;
  }

  /** The activity's limit; the activity must exist (the ledger refused packets of others). */
  public int maxGrabsPerUser(long activityId) {
    return activities
        .find(activityId)
        .orElseThrow(
            () -> new Invariants.InvariantViolation("packet of unknown activity " + activityId))
        .maxGrabsPerUser();
  }

  /**
   * Whether the ledger has paid the user as many shares of the activity as its limit allows. A
   * floor of the truth (grabs not yet paid are not counted): it answers for packets whose state the
   * store no longer has, which grab nothing more.
   */
  public boolean limitReached(long activityId, String userId) {
    return activities.paidGrabsOf(activityId, userId) >= maxGrabsPerUser(activityId);
  }

  /**
   * Rebuilds the counts from the ledger unless the store has them whole (restored in full since its
   * server last started: counts restored before a restart may have been rolled back).
   */
  public void ensurePresent(long activityId, Instant expiresAt) {
    if (!counts.whole(activityId)) {
      restore(activityId, expiresAt);
    }
  }

  /** Puts every grab the ledger has paid in the activity back into the store's counts. */
  public void restore(long activityId, Instant expiresAt) {
    counts.restore(activityId, activities.paidGrabs(activityId), expiresAt);
  }
}
