package hongbao.core.activity;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Port: the per-user grab counts of an activity in the fast store, where the grab script checks and
 * raises them atomically with the grab. Each user's entry lists the packets grabbed, so putting a
 * grab back twice counts it once.
 */
public interface ActivityCounts {

  /**
   * Whether the store holds the activity's whole counts, restored from the ledger since the server
   * holding them last started: false after they were lost or aged out, after a restore that stopped
   * half-way, and after a restart or a failover (which may have rolled them back).
   */
  boolean whole(long activityId);

  /**
   * Adds the given grabs (user id to packet ids) to the activity's counts, keeping those already
   * there, and keeps the counts at least as long as a packet expiring at {@code expiresAt}. Once
   * every grab is in, marks the counts whole.
   */
  void restore(long activityId, Map<String, List<Long>> grabs, Instant expiresAt);

  /** A page of the activity's users with their grab counts. */
  Page page(long activityId, String cursor, int limit);

  /**
   * @param nextCursor null on the last page
   * @param userCount how many users have grabbed in the activity
   */
  record Page(List<UserCount> users, String nextCursor, long userCount) {
    public Page {
      users = List.copyOf(users);
    }
  }

  record UserCount(String userId, int grabs) {}
}
