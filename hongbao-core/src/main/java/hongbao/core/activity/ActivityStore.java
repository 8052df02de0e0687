package hongbao.core.activity;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Port: activities as the ledger keeps them, and the grabs the ledger has paid in each. */
public interface ActivityStore {

  /** Records a new activity under a fresh id. */
  Activity create(String name, int maxGrabsPerUser, String createdBy, Instant at);

  Optional<Activity> find(long activityId);

  /**
   * The packets of the activity that have paid each user a share: user id to packet ids. At most
   * {@code maxGrabsPerUser} per user, which the ledger itself enforces.
   */
  Map<String, List<Long>> paidGrabs(long activityId);

  /** How many shares of the activity's packets the ledger has paid the user: 0 when none. */
  int paidGrabsOf(long activityId, String userId);
}
